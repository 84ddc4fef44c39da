// The database location (--db, $BENCHGUARD_DB, a job folder's store): which backend it names,
// whether it holds a password, and how every message and output shows it (without one).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace benchguard::store {

// True for postgresql://... and postgres://... (libpq's URI forms).
bool is_postgres_url(const std::string& location);

// A URL is read as libpq reads it (conninfo_uri_parse_options): the user-info runs up to the
// first '@' before any '/', so a password may hold '?' or '#'; the secrets are its password
// and the values of the parameters password, sslpassword and oauth_client_secret (keys
// percent-decoded).

// An error (the URL masked, and why) when libpq would not read the URL.
Status check_url(const std::string& url);

// True when the URL holds a secret (user:PASSWORD@host, a password=, sslpassword=, ...
// parameter), or cannot be read, so might: one that must not be written into a file others
// may read, such as a job folder.
bool has_password(const std::string& url);

// The location as messages and output may show it: a URL's password replaced by "***", a path
// as it is.
std::string display_location(const std::string& location);

// The URL with the password of its user-info (user:PASSWORD@host) and the value of each secret
// parameter replaced by "***". Everything else (host, database, sslmode, ...) is kept. A URL
// libpq would not read is shown as its scheme and "***".
std::string redact_url(const std::string& url);

// A command line (words joined by spaces, as runs store it) with each URL in it redacted: for
// command lines stored before the rule above.
std::string redact_command_line(const std::string& command_line);

// The secrets a URL holds, as written and percent-decoded: scrubbed from any message
// (a server's error text) before it is shown.
std::vector<std::string> url_secrets(const std::string& url);

// `text` with every occurrence of each of `secrets` replaced by "***".
std::string scrub(std::string text, const std::vector<std::string>& secrets);

// The folder of a database file ("." for a bare name), and the names in it that begin with
// `prefix`: the files beside the database that belong to it (instance logs, creations a
// killed process left). One pass of readdir that makes no path of the other entries, so that
// a database in a crowded folder (a checkout's root, /tmp) opens as fast as in its own.
std::string folder_of(const std::string& db_path);
std::vector<std::string> names_beginning_with(const std::string& folder, std::string_view prefix);

}  // namespace benchguard::store
