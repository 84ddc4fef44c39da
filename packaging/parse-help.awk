# Reads the --help output of one benchguard command (CLI11's layout) and prints its records,
# one a line, fields separated by tabs, for gen-cli-docs.sh:
#   desc  PATH  DESCRIPTION
#   usage PATH  USAGE                      (after "Usage: ")
#   pos   PATH  NAME  ENTRY  DESCRIPTION
#   opt   PATH  NAMES  TAKES_VALUE  CHOICES  ENTRY  DESCRIPTION
#   sub   PATH  NAME  DESCRIPTION
# PATH is the subcommand path ("" for benchguard itself, "db check" for `benchguard db check`),
# given with -v path=...; NAMES and CHOICES are separated by spaces; TAKES_VALUE is 1 or 0.
#
# Layout: description lines, "Usage: ...", then sections ("Positionals:", "Options:",
# "Subcommands:") of entries indented by two spaces. An entry's description starts at
# column 31 when the entry fits in 28 characters, else on the next line, indented by 30.

function rtrim(s) { sub(/ +$/, "", s); return s }
function trim(s) { sub(/^ +/, "", s); return rtrim(s) }

# The entry and description of the pending entry line, when no continuation line followed.
function split_pending() {
  if (length(pending) > 30 && substr(pending, 30, 1) == " ") {
    entry = rtrim(substr(pending, 1, 29))
    desc = trim(substr(pending, 31))
  } else {
    entry = rtrim(pending)
    desc = ""
  }
  sub(/^ +/, "", entry)
  pending = ""
}

function flush(   first, rest, names, takes, choices) {
  if (pending != "") split_pending()
  if (entry == "") return
  first = entry
  sub(/ .*/, "", first)
  rest = substr(entry, length(first) + 2)
  if (section == "Subcommands") {
    print "sub\t" path "\t" first "\t" desc
  } else if (first ~ /^-/) {
    names = first
    gsub(/,/, " ", names)
    # A value's type (TEXT, INT, UINT, FLOAT, ...) follows the names: an upper-case word
    # alone or followed by ":", "=" or a space ("Needs:" and "Excludes:" are not types).
    takes = (rest ~ /^[A-Z][A-Z0-9_]*([:= ]|$)/) ? 1 : 0
    choices = ""
    if (takes && rest ~ /^[A-Z][A-Z0-9_]*:\{[^}]*\}/) {
      choices = rest
      sub(/^[^{]*\{/, "", choices)
      sub(/\}.*/, "", choices)
      gsub(/,/, " ", choices)
    }
    # Or values listed as the whole description: "sequential | alternate | duet".
    if (takes && choices == "" && desc ~ /^[a-z0-9_-]+( [|] [a-z0-9_-]+)+$/) {
      choices = desc
      gsub(/ [|] /, " ", choices)
    }
    print "opt\t" path "\t" names "\t" takes "\t" choices "\t" entry "\t" desc
  } else {
    print "pos\t" path "\t" first "\t" entry "\t" desc
  }
  entry = ""
  desc = ""
}

BEGIN { section = "head"; pending = ""; entry = ""; desc = ""; head = "" }

{ sub(/\r$/, "") }

section == "head" {
  if ($0 ~ /^Usage: /) {
    if (path == "") sub(/^benchguard: /, "", head)
    print "desc\t" path "\t" head
    print "usage\t" path "\t" substr($0, 8)
    section = ""
  } else if ($0 != "") {
    head = (head == "" ? $0 : head " " $0)
  }
  next
}

/^[A-Za-z][A-Za-z ]*:$/ { flush(); section = substr($0, 1, length($0) - 1); next }

/^ *$/ { flush(); next }

# A description continued (or, after a long entry, begun) on a line of its own.
/^                              [^ ]/ {
  if (pending != "") { entry = trim(pending); pending = ""; desc = "" }
  desc = (desc == "" ? trim($0) : desc " " trim($0))
  next
}

/^  [^ ]/ { flush(); pending = $0; next }

END { flush() }
