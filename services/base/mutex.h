// The services' lock: a mutex, its scoped guard and a condition variable,
// with the names and annotations of absl::Mutex, absl::MutexLock and
// absl::CondVar, built on std::mutex and std::condition_variable.
//
// Why not absl::Mutex itself: Debian builds abseil without ThreadSanitizer,
// so TSan cannot see absl::Mutex lock or unlock and reports every access it
// guards as a race (thousands of false reports per run, hiding real ones).
// std::mutex is pthread, which TSan intercepts, so races and lock-order
// inversions between these locks are reported. The service benchmark shows
// no cost against absl::Mutex (README "Sanitizers and fuzzing"), so there
// is one implementation in every build.
//
// The ABSL_* annotations keep clang's -Wthread-safety checking every
// ABSL_GUARDED_BY and ABSL_EXCLUSIVE_LOCKS_REQUIRED against these locks.
// Only what the services use is here: Lock/Unlock, MutexLock, Await and
// AwaitWithTimeout on a bool flag, and CondVar Wait/Signal/SignalAll.
// Thread-safety: like std::mutex; not reentrant.

#ifndef MANCALA_SERVICES_BASE_MUTEX_H_
#define MANCALA_SERVICES_BASE_MUTEX_H_

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"

namespace mancala::services {

// What Mutex::Await waits for: a flag guarded by that mutex turning true.
class Condition {
 public:
  explicit Condition(const bool* flag) : flag_(flag) {}
  bool Eval() const { return *flag_; }

 private:
  const bool* flag_;
};

class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() {
    WakeAwaiters();
    mu_.unlock();
  }

  // Releases the mutex until `cond` holds (as absl: `cond` is checked
  // again whenever a holder releases the mutex), then holds it again.
  void Await(const Condition& cond) ABSL_EXCLUSIVE_LOCKS_REQUIRED(this) {
    AwaitUntil(cond, std::nullopt);
  }
  // The same for at most `timeout`; returns whether `cond` holds.
  bool AwaitWithTimeout(const Condition& cond, absl::Duration timeout)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(this) {
    return AwaitUntil(cond, std::chrono::steady_clock::now() +
                                absl::ToChronoNanoseconds(timeout));
  }

 private:
  friend class CondVar;

  // Under mu_. Notified before the unlock, never after: a woken waiter may
  // destroy the mutex at once (Server::Wait() returns, the server goes).
  void WakeAwaiters() {
    if (awaiting_ > 0) await_cv_.notify_all();
  }
  bool AwaitUntil(
      const Condition& cond,
      std::optional<std::chrono::steady_clock::time_point> deadline) {
    if (cond.Eval()) return true;
    // What this holder changed may be what the others wait for. Once only:
    // waking each other on every round would spin.
    WakeAwaiters();
    std::unique_lock<std::mutex> lock(mu_, std::adopt_lock);
    ++awaiting_;
    while (!cond.Eval()) {
      if (!deadline) {
        await_cv_.wait(lock);
      } else if (await_cv_.wait_until(lock, *deadline) ==
                 std::cv_status::timeout) {
        break;
      }
    }
    --awaiting_;
    const bool met = cond.Eval();
    lock.release();  // Still held, by the caller.
    return met;
  }

  std::mutex mu_;
  std::condition_variable await_cv_;  // Await(): a holder let go.
  int awaiting_ = 0;                  // Threads in Await(); under mu_.
};

// Holds a Mutex for its scope.
class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

// A condition variable used with a Mutex (absl::CondVar's subset).
class CondVar {
 public:
  // Releases `mu` until signalled (or spuriously woken: callers loop on
  // their condition), then holds it again.
  void Wait(Mutex* mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    mu->WakeAwaiters();
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

// gRPC's own locks are absl::Mutex, and Debian builds abseil without
// NDEBUG, so each of their Lock()s also updates abseil's global lock-order
// graph (absl's deadlock detection: GraphCycles was 3-5% of mancalad's CPU
// per call in issue 28's profile). A debugging aid: mancalad turns it off
// at start (mutex.cc); the in-process tests keep it. Call before any
// thread is started.
void SkipAbseilDeadlockDetection();

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_BASE_MUTEX_H_
