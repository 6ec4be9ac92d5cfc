// The files a web port serves to GET and HEAD besides its RPCs (mancalad
// --web-root DIR): the board page (clients/web) and its script and styles.
//
// The folder is read whole when the port starts, and only what was read is
// ever served: a request names a file by its path in the folder, looked up
// in a map, so no request can reach a file outside it (no "..", no link
// followed at request time, no listing). Hidden files and folders (a name
// starting with '.') are left out. A change to the folder is seen at the
// next start: the folder is an install tree, not a workspace.
//
// Each file gets its content type from its extension (unknown ones are
// application/octet-stream) and an ETag from its bytes (FNV-1a 64, the same
// on every node serving the same files, so a browser's If-None-Match holds
// across nodes behind one address).
//
// Thread-safety: immutable after Load(); Find() from any thread.

#ifndef MANCALA_SERVICES_WEB_WEB_ROOT_H_
#define MANCALA_SERVICES_WEB_WEB_ROOT_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace mancala::services::web {

struct StaticFile {
  std::string content_type;  // e.g. "text/html; charset=utf-8".
  std::string body;
  std::string etag;  // A strong validator, quoted: "\"0123abcd...\"".
};

class WebRoot {
 public:
  // Most bytes a root may hold: a page, not a file server.
  static constexpr size_t kMaxBytes = 64 << 20;

  // Reads every regular file below `dir`. INVALID_ARGUMENT if `dir` is not
  // a readable folder, has no index.html, or holds more than `max_bytes`;
  // UNAVAILABLE if a file cannot be read.
  static absl::StatusOr<WebRoot> Load(const std::string& dir,
                                      size_t max_bytes = kMaxBytes);

  // The file a request target names ("/app.js", "/app.js?v=2"): "/" and a
  // path ending in "/" name that folder's index.html. nullptr when there is
  // no such file.
  const StaticFile* Find(std::string_view target) const;

  size_t file_count() const { return files_.size(); }

 private:
  std::map<std::string, StaticFile, std::less<>> files_;  // By "/a/b.js".
};

// The content type served for a file name, by its extension.
std::string ContentTypeOfFile(std::string_view name);

}  // namespace mancala::services::web

#endif  // MANCALA_SERVICES_WEB_WEB_ROOT_H_
