// The fuzz targets' assertion: a failed property aborts, so libFuzzer saves
// the input as a crash (and the ctest run fails).

#ifndef MANCALA_TESTS_FUZZ_FUZZ_CHECK_H_
#define MANCALA_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdlib>
#include <iostream>
#include <string>

namespace mancala::fuzz {

inline void Check(bool ok, const std::string& what) {
  if (ok) return;
  std::cerr << "fuzz check failed: " << what << "\n";
  std::abort();
}

}  // namespace mancala::fuzz

#endif  // MANCALA_TESTS_FUZZ_FUZZ_CHECK_H_
