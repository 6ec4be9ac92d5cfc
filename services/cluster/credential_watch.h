// Credential changes made on other nodes, heard by this one: every
// `period` the watch asks the shared database which players' credentials
// (token or ban: storage/store.h "Credentials") changed lately and tells
// `on_changed` each one, so the node's token cache (services/api/auth.h)
// forgets them and reads them again at their next call. A revoked token,
// a replaced one or a ban is thus honoured on every node within `period`
// plus a query.
//
// Each read asks for changes since the last read's database clock less
// `overlap`: a change whose transaction commits after a read began, but
// was stamped before it, is still seen by the next read (unless its commit
// took longer than `overlap`). Players inside the overlap are reported
// again at each read; forgetting a player twice only costs a read of them.
//
// The node's own changes need no watch (the service that made them told
// its cache at once); a single node on SQLite runs none.
// Errors: a failed read is logged (at most once a minute) and retried at
// the next period from the same point, so nothing is skipped.
// Thread-safety: construct, then destroy; `on_changed` runs on the
// watch's own thread.

#ifndef MANCALA_SERVICES_CLUSTER_CREDENTIAL_WATCH_H_
#define MANCALA_SERVICES_CLUSTER_CREDENTIAL_WATCH_H_

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "services/base/mutex.h"
#include "storage/store.h"

namespace mancala::services {

struct CredentialWatchOptions {
  std::chrono::milliseconds period{250};
  std::chrono::milliseconds overlap{10'000};
};

class CredentialWatch {
 public:
  using OnChanged = std::function<void(const std::string& player_id)>;

  // Starts watching from the database's clock now, less `overlap`.
  // `store` outlives this.
  CredentialWatch(storage::Store& store, OnChanged on_changed,
                  CredentialWatchOptions options = {});
  ~CredentialWatch();  // Stops the thread; no call of on_changed after it.

  CredentialWatch(const CredentialWatch&) = delete;
  CredentialWatch& operator=(const CredentialWatch&) = delete;

 private:
  void Loop();
  // Waits `period` or until stopping; false once stopping.
  bool Wait();

  storage::Store& store_;
  const OnChanged on_changed_;
  const CredentialWatchOptions options_;
  Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_CLUSTER_CREDENTIAL_WATCH_H_
