#include "services/base/mutex.h"

// The one include of absl's synchronization header (tests/repo/
// check_project_mutex.py allows it here): only to set its mode, no lock.
#include "absl/synchronization/mutex.h"

namespace mancala::services {

void SkipAbseilDeadlockDetection() {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

}  // namespace mancala::services
