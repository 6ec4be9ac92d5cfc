// A fresh PostgreSQL database per test (tests/support/test_database.h),
// named after the test; the test is skipped without MANCALA_TEST_PG_DSN
// (a failure under CI=true).

#ifndef MANCALA_TESTS_STORAGE_PG_TEST_FIXTURE_H_
#define MANCALA_TESTS_STORAGE_PG_TEST_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>

#include "tests/support/test_database.h"

namespace mancala::storage {

class PgDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MANCALA_SKIP_WITHOUT_POSTGRES(testing::Backend::kPostgres);
    auto db = testing::TestDatabase::Create(
        testing::Backend::kPostgres,
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
  }
  std::unique_ptr<testing::TestDatabase> db_;
};

}  // namespace mancala::storage

#endif  // MANCALA_TESTS_STORAGE_PG_TEST_FIXTURE_H_
