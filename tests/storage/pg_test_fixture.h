// A fresh PostgreSQL schema for each test (skipped without a server, failed
// under CI=true), named after the test.

#ifndef MANCALA_TESTS_STORAGE_PG_TEST_FIXTURE_H_
#define MANCALA_TESTS_STORAGE_PG_TEST_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>

#include "tests/support/test_database.h"

namespace mancala::storage {

class PgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    MANCALA_SKIP_WITHOUT_POSTGRES(::mancala::testing::Backend::kPostgres);
    auto db = testing::TestDatabase::Create(
        ::mancala::testing::Backend::kPostgres,
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
  }
  std::unique_ptr<testing::TestDatabase> db_;
};

}  // namespace mancala::storage

#endif  // MANCALA_TESTS_STORAGE_PG_TEST_FIXTURE_H_
