// The page's files, read once (web_root.h).

#include "services/web/web_root.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/ascii.h"

namespace mancala::services::web {
namespace {

namespace fs = std::filesystem;

// FNV-1a, 64 bits: stable across processes and builds, unlike std::hash.
std::string EtagOf(std::string_view bytes) {
  uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  std::array<char, 24> out{};
  std::snprintf(out.data(), out.size(), "\"%016llx\"",
                static_cast<unsigned long long>(h));
  return out.data();
}

bool Hidden(const fs::path& relative) {
  for (const fs::path& part : relative) {
    if (!part.empty() && part.native().front() == '.') return true;
  }
  return false;
}

}  // namespace

std::string ContentTypeOfFile(std::string_view name) {
  const size_t dot = name.rfind('.');
  std::string ext(dot == std::string_view::npos ? "" : name.substr(dot + 1));
  absl::AsciiStrToLower(&ext);
  static const std::map<std::string, std::string, std::less<>> kTypes = {
      {"html", "text/html; charset=utf-8"},
      {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},
      {"json", "application/json"},
      {"map", "application/json"},
      {"txt", "text/plain; charset=utf-8"},
      {"svg", "image/svg+xml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"ico", "image/x-icon"},
      {"webp", "image/webp"},
      {"woff2", "font/woff2"},
      {"webmanifest", "application/manifest+json"},
  };
  const auto it = kTypes.find(ext);
  return it != kTypes.end() ? it->second : "application/octet-stream";
}

absl::StatusOr<WebRoot> WebRoot::Load(const std::string& dir,
                                      size_t max_bytes) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::InvalidArgumentError("--web-root " + dir + " is not a folder");
  }
  WebRoot root;
  size_t total = 0;
  fs::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path relative = fs::relative(it->path(), dir, ec);
    if (ec) break;
    if (Hidden(relative)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream bytes;
    if (in) bytes << in.rdbuf();
    if (!in || in.bad()) {
      return absl::UnavailableError("--web-root: cannot read " +
                                    it->path().string());
    }
    StaticFile file;
    file.body = std::move(bytes).str();
    total += file.body.size();
    if (total > max_bytes) {
      return absl::InvalidArgumentError(
          "--web-root " + dir + " holds more than " +
          std::to_string(max_bytes >> 20) + " MiB: a page's files only");
    }
    file.content_type = ContentTypeOfFile(relative.filename().native());
    file.etag = EtagOf(file.body);
    root.files_.emplace("/" + relative.generic_string(), std::move(file));
  }
  if (ec) {
    return absl::InvalidArgumentError("--web-root " + dir + ": " +
                                      ec.message());
  }
  if (root.Find("/") == nullptr) {
    return absl::InvalidArgumentError("--web-root " + dir +
                                      " has no index.html");
  }
  return root;
}

const StaticFile* WebRoot::Find(std::string_view target) const {
  target = target.substr(0, target.find_first_of("?#"));
  std::string path(target);
  if (path.empty() || path.front() != '/') return nullptr;
  if (path.back() == '/') path += "index.html";
  const auto it = files_.find(path);
  return it != files_.end() ? &it->second : nullptr;
}

}  // namespace mancala::services::web
