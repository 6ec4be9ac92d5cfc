// A fresh, empty database for one test, on either backend: a SQLite file in
// a temporary folder, or a private schema on the PostgreSQL server named by
// MANCALA_TEST_PG_DSN (deploy/pg.sh starts one; deploy/dev.sh test exports
// it). Dropped again when the object goes.
//
// Which backend the service tests use comes from MANCALA_TEST_BACKEND
// ("sqlite", the default, or "postgres"); ctest registers both variants.
// Without a DSN a PostgreSQL test is skipped, except under CI=true, where it
// fails: CI must never pass by skipping a backend.

#ifndef MANCALA_TESTS_SUPPORT_TEST_DATABASE_H_
#define MANCALA_TESTS_SUPPORT_TEST_DATABASE_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mancala::testing {

enum class Backend { kSqlite, kPostgres };

const char* BackendName(Backend backend);
// MANCALA_TEST_BACKEND, or SQLite when unset.
Backend BackendFromEnvironment();
// Why PostgreSQL tests cannot run here ("" if they can).
std::string PostgresMissing();
// CI=true: a missing backend is a failure, not a skip.
bool InCi();

class TestDatabase {
 public:
  // `name` tells tests apart (the test's name); UNAVAILABLE without a
  // PostgreSQL server.
  static absl::StatusOr<std::unique_ptr<TestDatabase>> Create(
      Backend backend, const std::string& name);
  // Create() on BackendFromEnvironment(), named after the running
  // GoogleTest test (MANCALA_SKIP_WITHOUT_POSTGRES first).
  static absl::StatusOr<std::unique_ptr<TestDatabase>> ForCurrentTest();
  ~TestDatabase();

  Backend backend() const { return backend_; }
  // What mancalad's --db takes: a file path or a postgresql:// URL.
  const std::string& url() const { return url_; }

  // Tampering, to test that a store refuses what is not its own: marks the
  // schema as migrated past this build, or adds a table of another
  // application to an empty database.
  absl::Status MarkNewerSchema();
  absl::Status AddForeignTable();
  // Runs one statement on the test's tables (either backend; the server
  // should be stopped), e.g. to write a value the store never would.
  // NOT_FOUND if it changed no row.
  absl::Status Exec(const std::string& sql);

 private:
  TestDatabase(Backend backend, std::string url, std::string schema,
               std::filesystem::path dir);
  absl::Status ExecAdmin(const std::string& sql);

  Backend backend_;
  std::string url_;
  std::string schema_;         // PostgreSQL only.
  std::filesystem::path dir_;  // SQLite only.
};

}  // namespace mancala::testing

// In a fixture's SetUp: skips the test when PostgreSQL is wanted but absent,
// or fails it under CI=true.
#define MANCALA_SKIP_WITHOUT_POSTGRES(backend)                         \
  do {                                                                 \
    if ((backend) == ::mancala::testing::Backend::kPostgres) {         \
      const std::string why = ::mancala::testing::PostgresMissing();   \
      if (!why.empty()) {                                              \
        if (::mancala::testing::InCi()) FAIL() << why << " (CI=true)"; \
        GTEST_SKIP() << why;                                           \
      }                                                                \
    }                                                                  \
  } while (0)

namespace mancala::testing {

// A fixture with a fresh database per test, named after it, on the backend
// GetParam() names (PostgreSQL: skipped without a server, failed under
// CI=true). Instantiate with ::testing::Values(Backend::kSqlite,
// Backend::kPostgres) and BackendParamName.
class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    MANCALA_SKIP_WITHOUT_POSTGRES(backend());
    auto db = TestDatabase::Create(
        backend(),
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
  }
  virtual Backend backend() const { return GetParam(); }
  std::unique_ptr<TestDatabase> db_;
};

// The test name suffix for a Backend parameter: "sqlite" or "postgres".
inline std::string BackendParamName(
    const ::testing::TestParamInfo<Backend>& p) {
  return BackendName(p.param);
}

// BackendTest on PostgreSQL only, for TEST_F.
class PostgresTest : public BackendTest {
 protected:
  Backend backend() const override { return Backend::kPostgres; }
};

}  // namespace mancala::testing

#endif  // MANCALA_TESTS_SUPPORT_TEST_DATABASE_H_
