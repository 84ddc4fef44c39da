#include "store/postgres/pg.hpp"

#include <libpq-fe.h>

#include <bit>
#include <cstring>
#include <limits>

#include "store/location.hpp"

namespace benchguard::store::postgres {
namespace {

constexpr Oid kBool = 16, kBytea = 17, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25, kOid = 26,
              kFloat4 = 700, kFloat8 = 701;

std::string big_endian(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  return out;
}

uint64_t read_big_endian(const char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// Notices (CREATE ... IF NOT EXISTS skipping) are not for the user.
void ignore_notice(void*, const char*) {}

// libpq's messages end with a newline and may span lines indented by tabs: one line for an
// Error, each run of white space one space.
std::string one_line(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    const bool space = c == '\n' || c == '\t' || c == '\r' || c == ' ';
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

Param int8(int64_t v) {
  return Param{big_endian(static_cast<uint64_t>(v)), kInt8, true};
}
Param int8(std::optional<int64_t> v) {
  if (!v) return Param{std::nullopt, kInt8, true};
  return int8(*v);
}
Param float8(double v) {
  return Param{big_endian(std::bit_cast<uint64_t>(v)), kFloat8, true};
}
Param float8(std::optional<double> v) {
  if (!v) return Param{std::nullopt, kFloat8, true};
  return float8(*v);
}
Param text(std::string v) {
  return Param{std::move(v), kText, false};
}
Param text(std::optional<std::string> v) {
  return Param{std::move(v), kText, false};
}
Param bytea(std::optional<std::string> v) {
  return Param{std::move(v), kBytea, true};
}

// ---------------------------------------------------------------- Rows

Rows::Rows(pg_result* res) : res_(res) {}
Rows::Rows(Rows&& other) noexcept : res_(other.res_) {
  other.res_ = nullptr;
}
Rows& Rows::operator=(Rows&& other) noexcept {
  if (this != &other) {
    if (res_ != nullptr) PQclear(res_);
    res_ = other.res_;
    other.res_ = nullptr;
  }
  return *this;
}
Rows::~Rows() {
  if (res_ != nullptr) PQclear(res_);
}

int Rows::size() const {
  return res_ == nullptr ? 0 : PQntuples(res_);
}

int64_t Rows::affected() const {
  if (res_ == nullptr) return 0;
  const char* n = PQcmdTuples(res_);
  return n == nullptr || *n == '\0' ? 0 : std::strtoll(n, nullptr, 10);
}

bool Rows::is_null(int row, int col) const {
  return PQgetisnull(res_, row, col) != 0;
}

int64_t Rows::int64(int row, int col) const {
  if (is_null(row, col)) return 0;
  const char* p = PQgetvalue(res_, row, col);
  const int n = PQgetlength(res_, row, col);
  switch (PQftype(res_, col)) {
    case kInt8:
      return static_cast<int64_t>(read_big_endian(p, 8));
    case kInt4:
      return static_cast<int32_t>(read_big_endian(p, 4));
    case kOid:
      return static_cast<int64_t>(read_big_endian(p, 4));
    case kInt2:
      return static_cast<int16_t>(read_big_endian(p, 2));
    case kBool:
      return n > 0 && p[0] != 0 ? 1 : 0;
    default:
      return static_cast<int64_t>(read_big_endian(p, n < 8 ? n : 8));
  }
}

double Rows::real(int row, int col) const {
  if (is_null(row, col)) return std::numeric_limits<double>::quiet_NaN();
  const char* p = PQgetvalue(res_, row, col);
  if (PQftype(res_, col) == kFloat4)
    return std::bit_cast<float>(static_cast<uint32_t>(read_big_endian(p, 4)));
  if (PQftype(res_, col) == kFloat8) return std::bit_cast<double>(read_big_endian(p, 8));
  return static_cast<double>(int64(row, col));
}

std::string_view Rows::bytes(int row, int col) const {
  if (is_null(row, col)) return {};
  return {PQgetvalue(res_, row, col), static_cast<size_t>(PQgetlength(res_, row, col))};
}

// ---------------------------------------------------------------- Conn

Conn::Conn(pg_conn* conn, std::string where, std::vector<std::string> secrets)
    : conn_(conn), where_(std::move(where)), secrets_(std::move(secrets)) {}

Conn::~Conn() {
  PQfinish(conn_);
}

Result<std::unique_ptr<Conn>> Conn::connect(const std::string& url) {
  const std::string where = redact_url(url);
  const std::vector<std::string> secrets = url_secrets(url);
  // The URL is expanded as libpq reads it; the application name is only a fallback.
  const char* keywords[] = {"dbname", "fallback_application_name", "client_encoding", nullptr};
  const char* values[] = {url.c_str(), "benchguard", "UTF8", nullptr};
  pg_conn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) return Error{where + ": cannot connect: out of memory"};
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = one_line(scrub(PQerrorMessage(conn), secrets));
    PQfinish(conn);
    return Error{where + ": cannot connect: " + message};
  }
  PQsetNoticeProcessor(conn, ignore_notice, nullptr);
  return std::unique_ptr<Conn>(new Conn(conn, where, secrets));
}

std::string Conn::last_error() const {
  return one_line(scrub(PQerrorMessage(conn_), secrets_));
}

std::string Conn::result_error(pg_result* res) const {
  const char* message = res != nullptr ? PQresultErrorMessage(res) : nullptr;
  if (message == nullptr || *message == '\0') return last_error();
  return one_line(scrub(message, secrets_));
}

Error Conn::error(const std::string& message) const {
  return Error{where_ + ": " + scrub(message, secrets_)};
}

Status Conn::exec(const std::string& sql) {
  pg_result* res = PQexec(conn_, sql.c_str());
  const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_EMPTY_QUERY) {
    PQclear(res);
    return ok_status();
  }
  Error e = error(result_error(res));
  if (res != nullptr) PQclear(res);
  return e;
}

Result<Rows> Conn::query(const std::string& sql, const std::vector<Param>& params) {
  auto found = prepared_.find(sql);
  if (found == prepared_.end()) {
    const std::string name = "bg_" + std::to_string(prepared_.size() + 1);
    std::vector<Oid> types;
    types.reserve(params.size());
    for (const auto& p : params) types.push_back(p.type);
    pg_result* res =
        PQprepare(conn_, name.c_str(), sql.c_str(), static_cast<int>(types.size()), types.data());
    const bool ok = res != nullptr && PQresultStatus(res) == PGRES_COMMAND_OK;
    std::string message = ok ? "" : result_error(res);
    if (res != nullptr) PQclear(res);
    if (!ok) return error(message);
    found = prepared_.emplace(sql, name).first;
  }
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;
  for (const auto& p : params) {
    values.push_back(p.value ? p.value->data() : nullptr);
    lengths.push_back(p.value ? static_cast<int>(p.value->size()) : 0);
    formats.push_back(p.binary ? 1 : 0);
  }
  pg_result* res =
      PQexecPrepared(conn_, found->second.c_str(), static_cast<int>(params.size()), values.data(),
                     lengths.data(), formats.data(), /*resultFormat=*/1);
  const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Rows(res);
  Error e = error(result_error(res));
  if (res != nullptr) PQclear(res);
  return e;
}

Result<int64_t> Conn::query_int(const std::string& sql, const std::vector<Param>& params) {
  BG_ASSIGN(Rows rows, query(sql, params));
  if (rows.size() != 1) return error("expected one row from: " + sql);
  return rows.int64(0, 0);
}

// ---------------------------------------------------------------- Transaction

Result<Transaction> Transaction::begin(Conn& conn, bool read_only) {
  BG_TRY(conn.exec(read_only ? "BEGIN READ ONLY" : "BEGIN"));
  return Transaction(&conn);
}

Transaction::~Transaction() {
  if (conn_ != nullptr) (void)conn_->exec("ROLLBACK");
}

Status Transaction::commit() {
  Conn* conn = conn_;
  conn_ = nullptr;
  return conn->exec("COMMIT");
}

}  // namespace benchguard::store::postgres
