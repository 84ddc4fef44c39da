// Secrets in a PostgreSQL URL, found as libpq reads the URL: masked in what is shown, listed
// for scrubbing messages, and a URL libpq would refuse shown masked whole.
#include "store/location.hpp"

#include <gtest/gtest.h>

namespace benchguard::store {
namespace {

TEST(LocationTest, PasswordRunsToTheAtBeforeAnySlashAsLibpqReadsIt) {
  // libpq takes '?' and '#' in the user-info literally: the password is "pa?ss#word".
  const std::string url = "postgresql://bg:pa?ss#word@127.0.0.1:5432/bgdb";
  EXPECT_TRUE(has_password(url));
  EXPECT_EQ(redact_url(url), "postgresql://bg:***@127.0.0.1:5432/bgdb");
  EXPECT_EQ(display_location(url), "postgresql://bg:***@127.0.0.1:5432/bgdb");
  EXPECT_EQ(url_secrets(url), std::vector<std::string>{"pa?ss#word"});
  EXPECT_TRUE(check_url(url).ok());
  EXPECT_EQ(redact_url("postgresql://bg:p?w@/db?host=/tmp/x&sslmode=disable"),
            "postgresql://bg:***@/db?host=/tmp/x&sslmode=disable");
  // An '@' after the first '/' belongs to the database name, not the user-info.
  EXPECT_EQ(redact_url("postgresql://h/d:b@x"), "postgresql://h/d:b@x");
  EXPECT_FALSE(has_password("postgresql://h/d:b@x"));
  EXPECT_EQ(redact_url("postgres://u:p%40ss@h:5432/db?sslmode=require"),
            "postgres://u:***@h:5432/db?sslmode=require");
  EXPECT_EQ(url_secrets("postgres://u:p%40ss@h/db"), (std::vector<std::string>{"p%40ss", "p@ss"}));
  EXPECT_FALSE(has_password("postgresql://u@h/db?sslmode=require"));
}

TEST(LocationTest, EverySecretParameterIsMaskedByItsDecodedKey) {
  const std::string url =
      "postgresql://h/db?user=u&password=x1&sslpassword=k3y&pass%77ord=y2&oauth_client_secret=z3"
      "&sslmode=verify-full";
  EXPECT_TRUE(has_password(url));
  EXPECT_EQ(redact_url(url),
            "postgresql://h/db?user=u&password=***&sslpassword=***&pass%77ord=***"
            "&oauth_client_secret=***&sslmode=verify-full");
  EXPECT_EQ(url_secrets(url), (std::vector<std::string>{"x1", "k3y", "y2", "z3"}));
  EXPECT_TRUE(has_password("postgresql://h/db?sslpassword=k"));
  // A bracketed IPv6 host may hold what would otherwise end the host list.
  EXPECT_EQ(redact_url("postgresql://u:p@[::1]:5432/db?password=q"),
            "postgresql://u:***@[::1]:5432/db?password=***");
}

TEST(LocationTest, AUrlLibpqCannotReadIsRefusedAndShownMaskedWhole) {
  for (const std::string url :
       {"postgresql://u:s3cret%zz@h/db", "postgresql://h/db?password", "postgresql://h/db?a=b=c",
        "postgresql://u:s3cret@[::1/db", "postgresql://h/db?password=s3cret%0"}) {
    SCOPED_TRACE(url);
    const Status checked = check_url(url);
    ASSERT_FALSE(checked.ok());
    EXPECT_EQ(checked.error().message.find("s3cret"), std::string::npos) << checked.error().message;
    EXPECT_NE(checked.error().message.find("libpq cannot read"), std::string::npos);
    EXPECT_EQ(redact_url(url).find("s3cret"), std::string::npos) << redact_url(url);
    EXPECT_TRUE(has_password(url));
  }
}

TEST(LocationTest, StoredCommandLinesHaveTheirUrlsRedacted) {
  EXPECT_EQ(redact_command_line("benchguard runs --db postgresql://bg:pa?ss#w@h/db --format json"),
            "benchguard runs --db postgresql://bg:***@h/db --format json");
  EXPECT_EQ(redact_command_line("benchguard run --db=postgres://u:p@h/d -- ./a b"),
            "benchguard run --db=postgres://u:***@h/d -- ./a b");
  EXPECT_EQ(redact_command_line("benchguard run -- ./a  b"), "benchguard run -- ./a  b");
  EXPECT_EQ(redact_command_line(""), "");
}

}  // namespace
}  // namespace benchguard::store
