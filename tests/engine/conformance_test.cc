// Every conformance file (docs/rules.md 8.1) through the replay checker, plus
// proof that the checker fails on corrupted data.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "engine/conformance/replay.h"

namespace mancala::engine::conformance {
namespace {

namespace fs = std::filesystem;

std::string DataPath(const std::string& name) {
  return std::string(MANCALA_CONFORMANCE_DIR) + "/" + name;
}

// Units per file: games of a trace file; (case, option value) pairs of
// edge_cases.json (16 Kalah x 2 end rules + 10 Congkak x 2 + 16 Oware x 2
// grand-slam rules + 16 Mancala Basic).
const std::map<std::string, int>& ExpectedUnits() {
  static const std::map<std::string, int> kUnits = {
      {"congkaksolver_congkak_random200.json", 200},
      {"edge_cases.json", 100},
      {"openspiel_kalah_playthrough.json", 1},
      {"openspiel_kalah_random200.json", 200},
      {"openspiel_oware_playthrough.json", 1},
      {"openspiel_oware_random200.json", 200},
      {"specmodel_basic3p_s4_p6_allranks_random100.json", 100},
      {"specmodel_basic3p_s4_p6_firstwin_random50.json", 50},
      {"specmodel_basic4p_s4_p6_allranks_random100.json", 100},
      {"specmodel_congkak_mover_empty_random200.json", 200},
      {"specmodel_kalah_mover_empty_random200.json", 200},
      {"stoneshark_basic2p_s4_p6_random200.json", 200},
  };
  return kUnits;
}

void ExpectFilePasses(const std::string& name) {
  const ReplayReport report = ReplayFile(DataPath(name));
  std::cout << name << ": " << report.passed << " units passed\n";
  EXPECT_EQ(report.failed, 0) << FormatReport(report);
  EXPECT_EQ(report.skipped, 0) << FormatReport(report);
  EXPECT_EQ(report.passed, ExpectedUnits().at(name)) << FormatReport(report);
}

TEST(ConformanceTest, EveryDataFileHasATest) {
  std::set<std::string> found;
  for (const auto& entry : fs::directory_iterator(MANCALA_CONFORMANCE_DIR)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name != "ratings.json") {
      found.insert(name);
    }
  }
  std::set<std::string> listed;
  for (const auto& [name, units] : ExpectedUnits()) listed.insert(name);
  EXPECT_EQ(found, listed);
}

TEST(ConformanceTest, EdgeCases) { ExpectFilePasses("edge_cases.json"); }
TEST(ConformanceTest, OpenSpielKalahPlaythrough) {
  ExpectFilePasses("openspiel_kalah_playthrough.json");
}
TEST(ConformanceTest, OpenSpielKalahRandom200) {
  ExpectFilePasses("openspiel_kalah_random200.json");
}
TEST(ConformanceTest, OpenSpielOwarePlaythrough) {
  ExpectFilePasses("openspiel_oware_playthrough.json");
}
TEST(ConformanceTest, OpenSpielOwareRandom200) {
  ExpectFilePasses("openspiel_oware_random200.json");
}
TEST(ConformanceTest, CongkakSolverRandom200) {
  ExpectFilePasses("congkaksolver_congkak_random200.json");
}
TEST(ConformanceTest, SpecModelKalahMoverEmptyRandom200) {
  ExpectFilePasses("specmodel_kalah_mover_empty_random200.json");
}
TEST(ConformanceTest, SpecModelCongkakMoverEmptyRandom200) {
  ExpectFilePasses("specmodel_congkak_mover_empty_random200.json");
}
TEST(ConformanceTest, SpecModelBasic3pAllRanksRandom100) {
  ExpectFilePasses("specmodel_basic3p_s4_p6_allranks_random100.json");
}
TEST(ConformanceTest, SpecModelBasic3pFirstWinRandom50) {
  ExpectFilePasses("specmodel_basic3p_s4_p6_firstwin_random50.json");
}
TEST(ConformanceTest, SpecModelBasic4pAllRanksRandom100) {
  ExpectFilePasses("specmodel_basic4p_s4_p6_allranks_random100.json");
}
TEST(ConformanceTest, StoneSharkBasic2pRandom200) {
  ExpectFilePasses("stoneshark_basic2p_s4_p6_random200.json");
}

// A temporary copy of a data file, edited, under its own name (the name
// tells the checker the file family) in a fresh folder removed at the end.
class CorruptedCopy {
 public:
  CorruptedCopy(const std::string& name, const nlohmann::json& doc)
      : dir_(fs::temp_directory_path() /
             ("mancala_conformance_" + std::to_string(::getpid()) + "_" +
              std::to_string(++count_))),
        path_((dir_ / name).string()) {
    fs::create_directories(dir_);
    std::ofstream(path_) << doc.dump();
  }
  ~CorruptedCopy() { fs::remove_all(dir_); }
  const std::string& path() const { return path_; }

 private:
  static inline int count_ = 0;
  fs::path dir_;
  std::string path_;
};

nlohmann::json Load(const std::string& name) {
  std::ifstream in(DataPath(name));
  return nlohmann::json::parse(in);
}

TEST(ConformanceTest, CheckerReportsACorruptedStepWithGameAndPly) {
  nlohmann::json doc = Load("openspiel_kalah_random200.json");
  doc["games"][17]["steps"][5]["pits"][1][2] =
      doc["games"][17]["steps"][5]["pits"][1][2].get<int>() + 1;
  const CorruptedCopy copy("openspiel_kalah_random200.json", doc);
  const ReplayReport report = ReplayFile(copy.path());
  EXPECT_EQ(report.failed, 1) << FormatReport(report);
  EXPECT_EQ(report.passed, 199);
  ASSERT_EQ(report.mismatches.size(), 1u) << FormatReport(report);
  EXPECT_EQ(report.mismatches[0].game_id, "game 17");
  EXPECT_EQ(report.mismatches[0].ply, 5);
  EXPECT_EQ(report.mismatches[0].what.rfind("pits: expected", 0), 0u)
      << report.mismatches[0].what;
}

// One wrong number in each file family must fail exactly one unit.
struct Corruption {
  const char* file;
  const char* pointer;  // JSON pointer to an integer to bump by one.
  const char* game_id;
  int ply;
  const char* what_prefix;
};

TEST(ConformanceTest, CheckerFailsOnAWrongNumberInEveryFamily) {
  const Corruption corruptions[] = {
      {"congkaksolver_congkak_random200.json", "/games/2/steps/0/relays",
       "game 2", 0, "relays:"},
      {"congkaksolver_congkak_random200.json", "/games/4/result/final_totals/1",
       "game 4", -1, "result.final_totals:"},
      // Compared at the last step (ply 125), where open_spiel swept (O-D3).
      {"openspiel_oware_random200.json", "/games/0/result/spec_final_stores/0",
       "game 0", 125, "stores: expected [19,25] got [18,25]"},
      {"openspiel_oware_random200.json", "/games/9/steps/3/stores/1", "game 9",
       3, "stores:"},
      {"specmodel_basic4p_s4_p6_allranks_random100.json",
       "/games/3/result/ranks/0", "game 3", -1, "result.ranks:"},
      {"specmodel_basic3p_s4_p6_firstwin_random50.json",
       "/games/1/result/remaining_stones/0", "game 1", -1,
       "result.remaining_stones:"},
      {"specmodel_kalah_mover_empty_random200.json",
       "/games/7/steps/0/captured", "game 7", 0, "captured:"},
      {"stoneshark_basic2p_s4_p6_random200.json", "/games/5/steps/2/to_move",
       "game 5", 2, "to_move:"},
      {"openspiel_kalah_random200.json", "/games/8/result/final_totals/0",
       "game 8", -1, "result.final_totals:"},
  };
  for (const Corruption& c : corruptions) {
    SCOPED_TRACE(std::string(c.file) + c.pointer);
    nlohmann::json doc = Load(c.file);
    const nlohmann::json::json_pointer ptr(c.pointer);
    doc[ptr] = doc[ptr].get<int>() + 1;
    const CorruptedCopy copy(c.file, doc);
    const ReplayReport report = ReplayFile(copy.path());
    EXPECT_EQ(report.failed, 1) << FormatReport(report);
    ASSERT_FALSE(report.mismatches.empty());
    EXPECT_EQ(report.mismatches[0].game_id, c.game_id);
    EXPECT_EQ(report.mismatches[0].ply, c.ply);
    EXPECT_EQ(report.mismatches[0].what.rfind(c.what_prefix, 0), 0u)
        << report.mismatches[0].what;
  }
}

TEST(ConformanceTest, CheckerReportsAWrongEdgeCaseExpectation) {
  nlohmann::json doc = Load("edge_cases.json");
  for (auto& c : doc["cases"]) {
    if (c["id"] == "K05") c["expected"]["any_side_empty"]["stores"][1] = 26;
  }
  const CorruptedCopy copy("edge_cases.json", doc);
  const ReplayReport report = ReplayFile(copy.path());
  EXPECT_EQ(report.failed, 1) << FormatReport(report);
  ASSERT_EQ(report.mismatches.size(), 1u) << FormatReport(report);
  EXPECT_EQ(report.mismatches[0].game_id, "K05[any_side_empty]");
  EXPECT_EQ(report.mismatches[0].what, "stores: expected [21,26] got [21,27]");
}

TEST(ConformanceTest, InvalidJsonIsOneFailureNotACrash) {
  const std::string path = (fs::temp_directory_path() /
                            ("broken_" + std::to_string(::getpid()) + ".json"))
                               .string();
  std::ofstream(path) << "{\"games\": [ {\"initial\": ";
  const ReplayReport report = ReplayFile(path);
  fs::remove(path);
  EXPECT_EQ(report.failed, 1);
  EXPECT_EQ(report.passed, 0);
  ASSERT_EQ(report.mismatches.size(), 1u);
  EXPECT_NE(report.mismatches[0].what.find("invalid JSON"), std::string::npos);

  const ReplayReport missing = ReplayFile("/nonexistent/trace.json");
  EXPECT_EQ(missing.failed, 1);
}

TEST(ConformanceTest, WellFormedJsonOfTheWrongShapeIsAFailure) {
  nlohmann::json doc = Load("openspiel_kalah_playthrough.json");
  doc["games"][0]["steps"][3].erase("house");
  const CorruptedCopy copy("shape.json", doc);
  const ReplayReport report = ReplayFile(copy.path());
  EXPECT_EQ(report.failed, 1) << FormatReport(report);
  EXPECT_EQ(report.passed, 0);
}

}  // namespace
}  // namespace mancala::engine::conformance
