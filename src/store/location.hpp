// PostgreSQL locations: recognizing them, and writing them into messages without their
// password.
#pragma once

#include <string>
#include <vector>

namespace benchguard::store::postgres {

// True for postgresql://... and postgres://... (libpq's URI forms).
bool is_postgres_url(const std::string& location);

// The URL with the password of its user-info (user:PASSWORD@host) and any password=...
// parameter replaced by "***". Everything else (host, database, sslmode, ...) is kept.
std::string redact_url(const std::string& url);

// The passwords a URL holds, as written and percent-decoded: scrubbed from any message
// (a server's error text) before it is shown.
std::vector<std::string> url_secrets(const std::string& url);

// `text` with every occurrence of each of `secrets` replaced by "***".
std::string scrub(std::string text, const std::vector<std::string>& secrets);

}  // namespace benchguard::store::postgres
