#include "tests/support/test_database.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

#ifdef MANCALA_HAVE_POSTGRES
#include <pqxx/pqxx>
#endif

namespace mancala::testing {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Lower-case letters, digits and underscores only: usable as an identifier.
std::string Identifier(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += std::isalnum(static_cast<unsigned char>(c))
               ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
               : '_';
  }
  return out.substr(0, 40);
}

}  // namespace

const char* BackendName(Backend backend) {
  return backend == Backend::kPostgres ? "postgres" : "sqlite";
}

Backend BackendFromEnvironment() {
  return Env("MANCALA_TEST_BACKEND") == "postgres" ? Backend::kPostgres
                                                   : Backend::kSqlite;
}

bool InCi() { return Env("CI") == "true"; }

std::string PostgresMissing() {
#ifndef MANCALA_HAVE_POSTGRES
  return "built without libpqxx: PostgreSQL tests cannot run";
#else
  if (Env("MANCALA_TEST_PG_DSN").empty()) {
    return "MANCALA_TEST_PG_DSN is not set (deploy/pg.sh start; eval "
           "\"$(deploy/pg.sh env)\")";
  }
  return "";
#endif
}

TestDatabase::TestDatabase(Backend backend, std::string url, std::string schema,
                           std::filesystem::path dir)
    : backend_(backend),
      url_(std::move(url)),
      schema_(std::move(schema)),
      dir_(std::move(dir)) {}

absl::StatusOr<std::unique_ptr<TestDatabase>> TestDatabase::ForCurrentTest() {
  return Create(
      BackendFromEnvironment(),
      ::testing::UnitTest::GetInstance()->current_test_info()->name());
}

absl::StatusOr<std::unique_ptr<TestDatabase>> TestDatabase::Create(
    Backend backend, const std::string& name) {
  static std::atomic<int> counter{0};
  const std::string unique = Identifier(name) + "_" +
                             std::to_string(::getpid()) + "_" +
                             std::to_string(counter++);
  if (backend == Backend::kSqlite) {
    auto dir = std::filesystem::temp_directory_path() / ("mancala_" + unique);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return std::unique_ptr<TestDatabase>(
        new TestDatabase(backend, (dir / "mancala.db").string(), "", dir));
  }
  if (std::string why = PostgresMissing(); !why.empty()) {
    return absl::UnavailableError(why);
  }
  const std::string dsn = Env("MANCALA_TEST_PG_DSN");
  const std::string schema = "t_" + unique;
  // libpq's `options` sets the schema for every connection of the URL.
  const std::string url = dsn +
                          (dsn.find('?') == std::string::npos ? "?" : "&") +
                          "options=-csearch_path%3D" + schema;
  std::unique_ptr<TestDatabase> db(new TestDatabase(backend, url, schema, {}));
  if (absl::Status s = db->ExecAdmin("CREATE SCHEMA " + schema); !s.ok()) {
    db->schema_.clear();  // Nothing to drop.
    return s;
  }
  return db;
}

TestDatabase::~TestDatabase() {
  if (backend_ == Backend::kSqlite) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  } else if (!schema_.empty()) {
    (void)ExecAdmin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
  }
}

absl::Status TestDatabase::ExecAdmin(const std::string& sql) {
#ifdef MANCALA_HAVE_POSTGRES
  try {
    pqxx::connection c(Env("MANCALA_TEST_PG_DSN"));
    pqxx::nontransaction tx(c);
    tx.exec(sql);
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return absl::UnavailableError(sql + ": " + e.what());
  }
#else
  return absl::UnavailableError("built without libpqxx: " + sql);
#endif
}

absl::Status TestDatabase::Exec(const std::string& sql) {
  int changed = 0;
  if (backend_ == Backend::kPostgres) {
#ifdef MANCALA_HAVE_POSTGRES
    try {
      pqxx::connection c(Env("MANCALA_TEST_PG_DSN"));
      pqxx::work tx(c);
      tx.exec("SET LOCAL search_path TO " + schema_);
      changed = static_cast<int>(tx.exec(sql).affected_rows());
      tx.commit();
    } catch (const std::exception& e) {
      return absl::UnavailableError(sql + ": " + e.what());
    }
#else
    return absl::UnavailableError("built without libpqxx: " + sql);
#endif
  } else {
    try {
      SQLite::Database db(url_, SQLite::OPEN_READWRITE, 5000);
      changed = db.exec(sql);
    } catch (const SQLite::Exception& e) {
      return absl::UnavailableError(sql + ": " + e.what());
    }
  }
  if (changed == 0) return absl::NotFoundError(sql + ": changed no row");
  return absl::OkStatus();
}

absl::Status TestDatabase::MarkNewerSchema() {
  if (backend_ == Backend::kPostgres) {
    return ExecAdmin("INSERT INTO " + schema_ +
                     ".mancala_schema_migrations (version) VALUES (999)");
  }
  try {
    SQLite::Database db(url_, SQLite::OPEN_READWRITE);
    db.exec("PRAGMA user_version = 999");
  } catch (const SQLite::Exception& e) {
    return absl::InternalError(e.what());
  }
  return absl::OkStatus();
}

absl::Status TestDatabase::AddForeignTable() {
  if (backend_ == Backend::kPostgres) {
    return ExecAdmin("CREATE TABLE " + schema_ + ".t (x INTEGER)");
  }
  try {
    SQLite::Database db(url_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE t (x); PRAGMA user_version = 3");
  } catch (const SQLite::Exception& e) {
    return absl::InternalError(e.what());
  }
  return absl::OkStatus();
}

}  // namespace mancala::testing
