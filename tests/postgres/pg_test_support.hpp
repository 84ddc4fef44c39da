// The PostgreSQL tests' server (tests/postgres/pg_server.sh, a CTest fixture) and a fresh
// database per test. The server is found through BENCHGUARD_TEST_PG, a URL such as
// postgresql:///postgres?host=/tmp/DIR&user=benchguard.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>

#include "store/postgres/pg.hpp"
#include "store/store.hpp"

namespace benchguard::store::testing {

// The server's URL (its `postgres` database); "" when not set.
inline std::string pg_server_url() {
  const char* url = std::getenv("BENCHGUARD_TEST_PG");
  return url == nullptr ? "" : url;
}

// The URL of database `db` on the test server.
inline std::string pg_url(const std::string& db) {
  const std::string base = pg_server_url();
  const size_t query = base.find('?');
  return "postgresql:///" + db + (query == std::string::npos ? "" : base.substr(query));
}

// A database of its own on the test server, dropped when the object dies.
class TestDatabase {
 public:
  TestDatabase() {
    static std::atomic<int> counter{0};
    name_ = "bgt_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    auto admin = postgres::Conn::connect(pg_server_url());
    if (!admin.ok()) {
      ADD_FAILURE() << admin.error().message;
      return;
    }
    (void)(*admin)->exec("DROP DATABASE IF EXISTS " + name_);
    auto created = (*admin)->exec("CREATE DATABASE " + name_);
    if (!created.ok()) ADD_FAILURE() << created.error().message;
  }
  ~TestDatabase() {
    auto admin = postgres::Conn::connect(pg_server_url());
    if (admin.ok()) (void)(*admin)->exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  }
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;
  const std::string& name() const { return name_; }
  std::string url() const { return pg_url(name_); }

 private:
  std::string name_;
};

// A count (or any one-integer answer) from the database at a URL.
inline int64_t pg_count(const std::string& url, const std::string& sql) {
  auto conn = postgres::Conn::connect(url);
  EXPECT_TRUE(conn.ok()) << conn.error().message;
  if (!conn.ok()) return -1;
  auto n = (*conn)->query_int(sql);
  EXPECT_TRUE(n.ok()) << n.error().message;
  return n.ok() ? *n : -1;
}

// A database of its own for each test.
class PgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    database_ = std::make_unique<TestDatabase>();
    db_ = database_->name();
  }
  void TearDown() override { database_.reset(); }
  std::string url() const { return pg_url(db_); }
  // A raw connection to this test's database.
  std::unique_ptr<postgres::Conn> raw() const {
    auto conn = postgres::Conn::connect(url());
    EXPECT_TRUE(conn.ok()) << conn.error().message;
    return conn.ok() ? std::move(conn).value() : nullptr;
  }
  int64_t count(const std::string& sql) const { return pg_count(url(), sql); }

  std::unique_ptr<TestDatabase> database_;
  std::string db_;
};

}  // namespace benchguard::store::testing
