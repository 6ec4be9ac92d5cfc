#include "tests/bench/service/report.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <utility>

namespace mancala::bench {
namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median over runs of `f`, which may read several rows of one run.
double MedianOf(const std::vector<RunResult>& runs,
                const std::function<double(const RunResult&)>& f) {
  std::vector<double> v;
  for (const RunResult& r : runs) v.push_back(f(r));
  return Median(v);
}

double Field(const RunResult& r, const std::string& row, double Row::*field) {
  auto it = r.rows.find(row);
  return it == r.rows.end() ? 0 : it->second.*field;
}

double Ratio(double a, double b) { return b > 0 ? a / b : 0; }

std::string Fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

std::string RowName(const std::string& call, int concurrency,
                    const std::string& suffix) {
  return call + " @" + std::to_string(concurrency) +
         (suffix.empty() ? "" : " " + suffix);
}

std::string DeliveryRowName(int watchers, bool web) {
  return "Delivery, " + std::to_string(watchers) +
         (web ? " web watchers" : " native watchers");
}

std::string WatchRowName(int watchers) {
  return "SubmitMove, " + std::to_string(watchers) + " watchers";
}

void PrintReport(const Header& header, const std::vector<int>& levels,
                 const std::vector<int>& watcher_levels, bool tmpfs,
                 const std::vector<RunResult>& runs, std::ostream& out) {
  out << "service_bench: median of " << header.runs << " run(s), "
      << header.measure_ms << " ms per phase, " << header.cores
      << " cores; database on " << (runs.empty() ? "?" : runs[0].db_fs)
      << "\nload average before " << header.load_before << ", after "
      << header.load_after << "\nmancalad extra arguments:";
  for (const std::string& a : header.server_args) out << " " << a;
  if (header.server_args.empty()) out << " (none)";
  out << "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-34s %5s %8s %9s %8s %8s %9s %7s %6s\n",
                "phase", "conc", "calls", "QPS", "p50 ms", "p99 ms", "CPU us/c",
                "threads", "errors");
  out << line;
  std::vector<std::string> order;
  for (int n : levels) {
    order.push_back(RowName("Health/Check", n, ""));
    order.push_back(RowName("SubmitMove", n, ""));
  }
  for (int n : {levels.front(), levels.back()}) {
    if (!runs.empty() && runs[0].rows.count(RowName(kBareCommitRow, n, ""))) {
      order.push_back(RowName(kBareCommitRow, n, ""));
    }
  }
  if (tmpfs) {
    order.push_back(RowName("Health/Check", levels.front(), "tmpfs"));
    order.push_back(RowName("SubmitMove", levels.front(), "tmpfs"));
  }
  const bool postgres =
      !runs.empty() &&
      runs[0].rows.count(RowName("SubmitMove", levels.front(), "postgres"));
  const bool two_nodes =
      !runs.empty() && runs[0].rows.count(RowName("SubmitMove", levels.front(),
                                                  kTwoNodesSuffix));
  const std::pair<std::string, bool> backends[] = {
      {"postgres", postgres}, {kTwoNodesSuffix, two_nodes}};
  for (const auto& [suffix, present] : backends) {
    if (!present) continue;
    for (int n : levels) {
      order.push_back(RowName("Health/Check", n, suffix));
      order.push_back(RowName("SubmitMove", n, suffix));
    }
  }
  if (!runs.empty()) {
    for (const auto& [name, row] : runs[0].rows) {
      // "GetMatch, anonymous @8", "GetMatch, token @8" (the web phases'
      // GetMatch rows come with theirs, below).
      if (name.rfind("GetMatch, ", 0) == 0) order.push_back(name);
    }
  }
  for (int w : watcher_levels) order.push_back(WatchRowName(w));
  const int wc = header.web_clients, ww = header.web_watchers;
  if (ww > 0) {
    for (const char* call : {"Health/Check", "GetMatch"}) {
      order.push_back(RowName(call, wc, kNativeBesideWebSuffix));
      order.push_back(RowName(call, wc, kWebSuffix));
    }
    order.push_back(DeliveryRowName(ww, false));
    order.push_back(DeliveryRowName(ww, true));
  }
  for (const std::string& name : order) {
    auto med = [&](double Row::*f) {
      return MedianOf(runs,
                      [&](const RunResult& r) { return Field(r, name, f); });
    };
    std::snprintf(line, sizeof line,
                  "%-34s %5.0f %8.0f %9.1f %8.2f %8.2f %9.0f %7.0f %6.0f\n",
                  name.c_str(), med(&Row::concurrency), med(&Row::calls),
                  med(&Row::qps), med(&Row::p50_ms), med(&Row::p99_ms),
                  med(&Row::cpu_us), med(&Row::threads), med(&Row::errors));
    out << line;
  }
  out << "\n";
  const int lo = levels.front(), hi = levels.back();
  const std::string at = std::to_string(hi);
  struct Figure {
    std::string name;
    std::function<double(const RunResult&)> value;
    std::string goal;
    std::function<bool(double)> met;  // Null: diagnostic.
  };
  auto qps = [](const std::string& row) {
    return [row](const RunResult& r) { return Field(r, row, &Row::qps); };
  };
  std::vector<Figure> figures;
  figures.push_back({"SubmitMove QPS @" + std::to_string(lo) +
                         " / Health QPS @" + std::to_string(lo),
                     [=](const RunResult& r) {
                       return Ratio(qps(RowName("SubmitMove", lo, ""))(r),
                                    qps(RowName("Health/Check", lo, ""))(r));
                     },
                     ">= 0.35", [](double v) { return v >= 0.35; }});
  if (tmpfs) {
    figures.push_back({"  same, database on tmpfs",
                       [=](const RunResult& r) {
                         return Ratio(
                             qps(RowName("SubmitMove", lo, "tmpfs"))(r),
                             qps(RowName("Health/Check", lo, "tmpfs"))(r));
                       },
                       "(diagnostic)", nullptr});
  }
  figures.push_back({"SubmitMove QPS @" + at + " / @" + std::to_string(lo),
                     [=](const RunResult& r) {
                       return Ratio(qps(RowName("SubmitMove", hi, ""))(r),
                                    qps(RowName("SubmitMove", lo, ""))(r));
                     },
                     ">= 2.5", [](double v) { return v >= 2.5; }});
  figures.push_back({"  SubmitMove calls refused @" + at,
                     [=](const RunResult& r) {
                       return Field(r, RowName("SubmitMove", hi, ""),
                                    &Row::errors);
                     },
                     "0", [](double v) { return v == 0; }});
  figures.push_back(
      {"SubmitMove p99 @" + at + " / Health p99 @" + at,
       [=](const RunResult& r) {
         return Ratio(Field(r, RowName("SubmitMove", hi, ""), &Row::p99_ms),
                      Field(r, RowName("Health/Check", hi, ""), &Row::p99_ms));
       },
       "<= 3", [](double v) { return v <= 3; }});
  const std::string cpu_where = tmpfs ? "tmpfs" : "";
  figures.push_back(
      {std::string("CPU per SubmitMove / per Health") +
           (tmpfs ? " (tmpfs)" : " (disk)"),
       [=](const RunResult& r) {
         return Ratio(
             Field(r, RowName("SubmitMove", lo, cpu_where), &Row::cpu_us),
             Field(r, RowName("Health/Check", lo, cpu_where), &Row::cpu_us));
       },
       "<= 3", [](double v) { return v <= 3; }});
  const std::string where = tmpfs ? " (tmpfs)" : " (disk)";
  const bool counted =
      !runs.empty() && Field(runs[0], RowName("SubmitMove", lo, cpu_where),
                             &Row::syscalls_per_call) >= 0;
  // Per call, from perf stat: SubmitMove against its goal, Health/Check
  // beside it as a diagnostic.
  auto per_call = [&](const char* call, const char* what, double Row::*field,
                      const char* goal, double most) {
    const bool move = std::string(call) == "SubmitMove";
    const std::string row = RowName(call, lo, cpu_where);
    figures.push_back(
        {std::string(move ? "" : "  ") + what + " per " + call + where,
         [=](const RunResult& r) { return Field(r, row, field); },
         move ? goal : "(diagnostic)",
         move ? std::function<bool(double)>(
                    [most](double v) { return v <= most; })
              : nullptr});
  };
  if (counted) {
    for (const char* call : {"SubmitMove", "Health/Check"}) {
      per_call(call, "syscalls", &Row::syscalls_per_call, "<= 12", 12);
      per_call(call, "new threads", &Row::new_threads_per_call, "~0 (<= 0.01)",
               0.01);
    }
  }
  for (int n : {lo, hi}) {
    const std::string bare = RowName(kBareCommitRow, n, "");
    if (runs.empty() || !runs[0].rows.count(bare)) continue;
    const double goal = n == lo ? 0.6 : 0.25;
    figures.push_back(
        {"SubmitMove QPS @" + std::to_string(n) + " / bare group commit",
         [=](const RunResult& r) {
           return Ratio(qps(RowName("SubmitMove", n, ""))(r), qps(bare)(r));
         },
         Fmt(">= %.2g", goal), [=](double v) { return v >= goal; }});
  }
  if (postgres) {
    for (int n : levels) {
      figures.push_back(
          {"SubmitMove QPS @" + std::to_string(n) + ", PostgreSQL / SQLite",
           [=](const RunResult& r) {
             return Ratio(qps(RowName("SubmitMove", n, "postgres"))(r),
                          qps(RowName("SubmitMove", n, ""))(r));
           },
           ">= 0.8", [](double v) { return v >= 0.8; }});
    }
  }
  if (two_nodes) {
    // Two nodes against one on the same database, and each
    // against its own Health at the same concurrency (what the machine
    // gives a call that does no work).
    const std::string one = "postgres", two = kTwoNodesSuffix;
    auto ratio = [=](const std::string& a, const std::string& b) {
      return [=](const RunResult& r) { return Ratio(qps(a)(r), qps(b)(r)); };
    };
    for (int n : levels) {
      const std::string at_n = " @" + std::to_string(n);
      figures.push_back(
          {"SubmitMove QPS" + at_n + ", 2 nodes / 1 node",
           ratio(RowName("SubmitMove", n, two), RowName("SubmitMove", n, one)),
           "(diagnostic)", nullptr});
      figures.push_back({"  Health QPS" + at_n + ", 2 nodes / 1 node",
                         ratio(RowName("Health/Check", n, two),
                               RowName("Health/Check", n, one)),
                         "(diagnostic)", nullptr});
      figures.push_back({"  SubmitMove / Health" + at_n + ", 1 node",
                         ratio(RowName("SubmitMove", n, one),
                               RowName("Health/Check", n, one)),
                         "(diagnostic)", nullptr});
      figures.push_back({"  SubmitMove / Health" + at_n + ", 2 nodes",
                         ratio(RowName("SubmitMove", n, two),
                               RowName("Health/Check", n, two)),
                         "(diagnostic)", nullptr});
    }
  }
  figures.push_back({"GetMatch QPS with token / anonymous",
                     [=](const RunResult& r) {
                       double token = 0, anon = 0;
                       for (const auto& [name, row] : r.rows) {
                         if (name.rfind("GetMatch, token", 0) == 0)
                           token = row.qps;
                         if (name.rfind("GetMatch, anonymous", 0) == 0)
                           anon = row.qps;
                       }
                       return Ratio(token, anon);
                     },
                     ">= 0.95", [](double v) { return v >= 0.95; }});
  for (int w : watcher_levels) {
    if (w == 0) continue;
    const bool top = w == watcher_levels.back();
    figures.push_back(
        {"mover p50, " + std::to_string(w) + " watchers / none",
         [=](const RunResult& r) {
           return Ratio(Field(r, WatchRowName(w), &Row::p50_ms),
                        Field(r, WatchRowName(0), &Row::p50_ms));
         },
         top ? "<= 1.5" : "",
         top ? std::function<bool(double)>([](double v) { return v <= 1.5; })
             : nullptr});
  }
  figures.push_back({"server threads, SubmitMove @" + at,
                     [=](const RunResult& r) {
                       return Field(r, RowName("SubmitMove", hi, ""),
                                    &Row::threads);
                     },
                     "bounded by --max-threads", nullptr});
  figures.push_back({"memory per live match, KiB",
                     [](const RunResult& r) { return r.kib_per_match; },
                     "<= 16", [](double v) { return v <= 16; }});
  if (ww > 0) {
    const std::string at_wc = " @" + std::to_string(wc);
    auto ratio = [=](const std::string& a, const std::string& b,
                     double Row::*f) {
      return [=](const RunResult& r) {
        return Ratio(Field(r, a, f), Field(r, b, f));
      };
    };
    figures.push_back(
        {"web GetMatch QPS" + at_wc + " / native",
         ratio(RowName("GetMatch", wc, kWebSuffix),
               RowName("GetMatch", wc, kNativeBesideWebSuffix), &Row::qps),
         ">= 0.6", [](double v) { return v >= 0.6; }});
    figures.push_back(
        {"  web Health QPS" + at_wc + " / native",
         ratio(RowName("Health/Check", wc, kWebSuffix),
               RowName("Health/Check", wc, kNativeBesideWebSuffix), &Row::qps),
         "(diagnostic)", nullptr});
    figures.push_back(
        {"  web GetMatch QPS / web Health QPS" + at_wc,
         ratio(RowName("GetMatch", wc, kWebSuffix),
               RowName("Health/Check", wc, kWebSuffix), &Row::qps),
         "(diagnostic)", nullptr});
    figures.push_back(
        {"move p99 to " + std::to_string(ww) + " web / native watchers",
         ratio(DeliveryRowName(ww, true), DeliveryRowName(ww, false),
               &Row::p99_ms),
         "<= 2", [](double v) { return v <= 2; }});
    const int streams = runs.empty() ? 0 : runs[0].web.streams;
    const std::string s = std::to_string(streams);
    figures.push_back({"moves missed by " + s + " web streams",
                       [](const RunResult& r) { return r.web.moves_missed; },
                       "0", [](double v) { return v == 0; }});
    figures.push_back({"server threads, idle",
                       [](const RunResult& r) { return r.web.threads_idle; },
                       "(diagnostic)", nullptr});
    figures.push_back({"server threads above idle, " + s + " web streams",
                       [](const RunResult& r) {
                         return r.web.threads_open - r.web.threads_idle;
                       },
                       "<= 32", [](double v) { return v <= 32; }});
    figures.push_back({"resident KiB per open web stream",
                       [](const RunResult& r) { return r.web.kib_per_stream; },
                       "<= 64", [](double v) { return v <= 64; }});
  }
  std::snprintf(line, sizeof line, "%-44s %9s %-26s %s\n", "figure", "value",
                "goal", "met");
  out << line;
  for (const Figure& f : figures) {
    const double v = MedianOf(runs, f.value);
    std::snprintf(
        line, sizeof line, "%-44s %9s %-26s %s\n", f.name.c_str(),
        Fmt(v >= 100 || v == static_cast<int>(v) ? "%.0f" : "%.2f", v).c_str(),
        f.goal.c_str(), f.met ? (f.met(v) ? "yes" : "NO") : "");
    out << line;
  }
}

}  // namespace mancala::bench
