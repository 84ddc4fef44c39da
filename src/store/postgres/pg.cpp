#include "store/postgres/pg.hpp"

#include <dlfcn.h>
#include <libpq-fe.h>

#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

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

// libpq, loaded when the first PostgreSQL connection is made rather than when benchguard starts:
// linked, it and what it needs (TLS, Kerberos, LDAP, SASL: two dozen libraries) cost every
// invocation of benchguard about 4 ms of start-up, PostgreSQL or not.
struct LibPq {
  decltype(&::PQclear) PQclear = nullptr;
  decltype(&::PQcmdTuples) PQcmdTuples = nullptr;
  decltype(&::PQconnectdbParams) PQconnectdbParams = nullptr;
  decltype(&::PQconninfoFree) PQconninfoFree = nullptr;
  decltype(&::PQconninfoParse) PQconninfoParse = nullptr;
  decltype(&::PQerrorMessage) PQerrorMessage = nullptr;
  decltype(&::PQexec) PQexec = nullptr;
  decltype(&::PQexecPrepared) PQexecPrepared = nullptr;
  decltype(&::PQfinish) PQfinish = nullptr;
  decltype(&::PQfreemem) PQfreemem = nullptr;
  decltype(&::PQftype) PQftype = nullptr;
  decltype(&::PQgetisnull) PQgetisnull = nullptr;
  decltype(&::PQgetlength) PQgetlength = nullptr;
  decltype(&::PQgetvalue) PQgetvalue = nullptr;
  decltype(&::PQntuples) PQntuples = nullptr;
  decltype(&::PQprepare) PQprepare = nullptr;
  decltype(&::PQresultErrorMessage) PQresultErrorMessage = nullptr;
  decltype(&::PQresultStatus) PQresultStatus = nullptr;
  decltype(&::PQsetNoticeProcessor) PQsetNoticeProcessor = nullptr;
  decltype(&::PQstatus) PQstatus = nullptr;
};

Result<const LibPq*> load_libpq() {
  static const Result<LibPq> loaded = []() -> Result<LibPq> {
    void* handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
      return Error{std::string("PostgreSQL needs libpq, which is not installed here (apt-get "
                               "install libpq5): ") +
                   dlerror()};
    LibPq l;
    std::string lacking;
    const auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
      if (fn == nullptr) lacking += std::string(lacking.empty() ? "" : ", ") + name;
    };
    get(l.PQclear, "PQclear");
    get(l.PQcmdTuples, "PQcmdTuples");
    get(l.PQconnectdbParams, "PQconnectdbParams");
    get(l.PQconninfoFree, "PQconninfoFree");
    get(l.PQconninfoParse, "PQconninfoParse");
    get(l.PQerrorMessage, "PQerrorMessage");
    get(l.PQexec, "PQexec");
    get(l.PQexecPrepared, "PQexecPrepared");
    get(l.PQfinish, "PQfinish");
    get(l.PQfreemem, "PQfreemem");
    get(l.PQftype, "PQftype");
    get(l.PQgetisnull, "PQgetisnull");
    get(l.PQgetlength, "PQgetlength");
    get(l.PQgetvalue, "PQgetvalue");
    get(l.PQntuples, "PQntuples");
    get(l.PQprepare, "PQprepare");
    get(l.PQresultErrorMessage, "PQresultErrorMessage");
    get(l.PQresultStatus, "PQresultStatus");
    get(l.PQsetNoticeProcessor, "PQsetNoticeProcessor");
    get(l.PQstatus, "PQstatus");
    if (!lacking.empty()) return Error{"this libpq.so.5 lacks " + lacking};
    return l;
  }();
  if (!loaded.ok()) return loaded.error();
  return &loaded.value();
}

// The loaded library: Conn exists only once connect() loaded it.
const LibPq& pq() {
  return *load_libpq().value();
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
    if (res_ != nullptr) pq().PQclear(res_);
    res_ = other.res_;
    other.res_ = nullptr;
  }
  return *this;
}
Rows::~Rows() {
  if (res_ != nullptr) pq().PQclear(res_);
}

int Rows::size() const {
  return res_ == nullptr ? 0 : pq().PQntuples(res_);
}

int64_t Rows::affected() const {
  if (res_ == nullptr) return 0;
  const char* n = pq().PQcmdTuples(res_);
  return n == nullptr || *n == '\0' ? 0 : std::strtoll(n, nullptr, 10);
}

bool Rows::is_null(int row, int col) const {
  return pq().PQgetisnull(res_, row, col) != 0;
}

int64_t Rows::int64(int row, int col) const {
  if (is_null(row, col)) return 0;
  const char* p = pq().PQgetvalue(res_, row, col);
  const int n = pq().PQgetlength(res_, row, col);
  switch (pq().PQftype(res_, col)) {
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
  const char* p = pq().PQgetvalue(res_, row, col);
  if (pq().PQftype(res_, col) == kFloat4)
    return std::bit_cast<float>(static_cast<uint32_t>(read_big_endian(p, 4)));
  if (pq().PQftype(res_, col) == kFloat8) return std::bit_cast<double>(read_big_endian(p, 8));
  return static_cast<double>(int64(row, col));
}

std::string_view Rows::bytes(int row, int col) const {
  if (is_null(row, col)) return {};
  return {pq().PQgetvalue(res_, row, col), static_cast<size_t>(pq().PQgetlength(res_, row, col))};
}

// ---------------------------------------------------------------- Conn

Conn::Conn(pg_conn* conn, std::string where, std::vector<std::string> secrets)
    : conn_(conn), where_(std::move(where)), secrets_(std::move(secrets)) {}

Conn::~Conn() {
  pq().PQfinish(conn_);
}

namespace {

// The values libpq itself reads from `url` for its secret keywords (those it shows as "*"),
// with `secrets`; an error when libpq cannot read the URL.
Status add_libpq_secrets(const std::string& url, const std::string& where,
                         std::vector<std::string>& secrets) {
  char* why = nullptr;
  PQconninfoOption* options = pq().PQconninfoParse(url.c_str(), &why);
  if (options == nullptr) {
    std::string message = why != nullptr ? one_line(why) : "out of memory";
    if (why != nullptr) pq().PQfreemem(why);
    return Error{where + ": libpq cannot read this URL: " + scrub(message, secrets)};
  }
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val != nullptr && *o->val != '\0' && o->dispchar != nullptr &&
        std::strchr(o->dispchar, '*') != nullptr)
      secrets.emplace_back(o->val);
  }
  pq().PQconninfoFree(options);
  return ok_status();
}

}  // namespace

Result<std::unique_ptr<Conn>> Conn::connect(const std::string& url) {
  const std::string where = redact_url(url);
  std::vector<std::string> secrets = url_secrets(url);
  if (auto lib = load_libpq(); !lib.ok()) return Error{where + ": " + lib.error().message};
  BG_TRY(check_url(url));
  BG_TRY(add_libpq_secrets(url, where, secrets));
  // The URL is expanded as libpq reads it; the application name is only a fallback.
  const char* keywords[] = {"dbname", "fallback_application_name", "client_encoding", nullptr};
  const char* values[] = {url.c_str(), "benchguard", "UTF8", nullptr};
  pg_conn* conn = pq().PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr) return Error{where + ": cannot connect: out of memory"};
  if (pq().PQstatus(conn) != CONNECTION_OK) {
    std::string message = one_line(scrub(pq().PQerrorMessage(conn), secrets));
    pq().PQfinish(conn);
    return Error{where + ": cannot connect: " + message};
  }
  pq().PQsetNoticeProcessor(conn, ignore_notice, nullptr);
  return std::unique_ptr<Conn>(new Conn(conn, where, secrets));
}

std::string Conn::last_error() const {
  return one_line(scrub(pq().PQerrorMessage(conn_), secrets_));
}

std::string Conn::result_error(pg_result* res) const {
  const char* message = res != nullptr ? pq().PQresultErrorMessage(res) : nullptr;
  if (message == nullptr || *message == '\0') return last_error();
  return one_line(scrub(message, secrets_));
}

Error Conn::error(const std::string& message) const {
  return Error{where_ + ": " + scrub(message, secrets_)};
}

Status Conn::exec(const std::string& sql) {
  pg_result* res = pq().PQexec(conn_, sql.c_str());
  const ExecStatusType st = res != nullptr ? pq().PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_EMPTY_QUERY) {
    pq().PQclear(res);
    return ok_status();
  }
  Error e = error(result_error(res));
  if (res != nullptr) pq().PQclear(res);
  return e;
}

Result<Rows> Conn::query(const std::string& sql, const std::vector<Param>& params) {
  auto found = prepared_.find(sql);
  if (found == prepared_.end()) {
    const std::string name = "bg_" + std::to_string(prepared_.size() + 1);
    std::vector<Oid> types;
    types.reserve(params.size());
    for (const auto& p : params) types.push_back(p.type);
    pg_result* res = pq().PQprepare(conn_, name.c_str(), sql.c_str(),
                                    static_cast<int>(types.size()), types.data());
    const bool ok = res != nullptr && pq().PQresultStatus(res) == PGRES_COMMAND_OK;
    std::string message = ok ? "" : result_error(res);
    if (res != nullptr) pq().PQclear(res);
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
      pq().PQexecPrepared(conn_, found->second.c_str(), static_cast<int>(params.size()),
                          values.data(), lengths.data(), formats.data(), /*resultFormat=*/1);
  const ExecStatusType st = res != nullptr ? pq().PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return Rows(res);
  Error e = error(result_error(res));
  if (res != nullptr) pq().PQclear(res);
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

void TransactionOps::rollback(Conn& conn) {
  (void)conn.exec("ROLLBACK");
}

Status TransactionOps::commit(Conn*& conn) {
  Conn* ending = std::exchange(conn, nullptr);
  return ending->exec("COMMIT");
}

}  // namespace benchguard::store::postgres
