# Writes one man page (roff, section 1) per command of the model gen-cli-docs.sh builds:
# benchguard.1 for benchguard itself, benchguard-run.1 for `benchguard run`,
# benchguard-db-check.1 for `benchguard db check`. Variables: version, dir (where to write).

# Text for roff: backslashes and hyphens escaped, and a leading "." or "'" made literal.
function esc(s,   r, i, c) {
  r = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\") r = r "\\e"
    else if (c == "-") r = r "\\-"
    else r = r c
  }
  if (r ~ /^[.']/) r = "\\&" r
  return r
}

function page(p,   s) { s = p; gsub(/ /, "-", s); return p == "" ? "benchguard" : "benchguard-" s }
function command(p) { return p == "" ? "benchguard" : "benchguard " p }

# "-h,--help" as "\fB\-h\fR, \fB\-\-help\fR", then the rest of the entry (the value) in italics.
function option_entry(entry,   first, rest, n, parts, i, r) {
  first = entry
  sub(/ .*/, "", first)
  rest = substr(entry, length(first) + 2)
  n = split(first, parts, ",")
  r = ""
  for (i = 1; i <= n; i++) r = r (i > 1 ? ", " : "") "\\fB" esc(parts[i]) "\\fR"
  if (rest != "") r = r " \\fI" esc(rest) "\\fR"
  return r
}

function positional_entry(entry,   first, rest) {
  first = entry
  sub(/ .*/, "", first)
  rest = substr(entry, length(first) + 2)
  return "\\fB" esc(first) "\\fR" (rest != "" ? " \\fI" esc(rest) "\\fR" : "")
}

function item(head, text, f) {
  print ".TP" > f
  print head > f
  if (text != "") print esc(text) > f
}

function parent(p) {
  if (p !~ / /) return ""
  sub(/ [^ ]*$/, "", p)
  return p
}

$1 == "desc" { paths[++npaths] = $2; desc[$2] = $3 }
$1 == "usage" { usage[$2] = $3 }
$1 == "pos" { i = ++npos[$2]; pos_entry[$2, i] = $4; pos_desc[$2, i] = $5 }
$1 == "opt" { i = ++nopt[$2]; opt_names[$2, i] = $3; opt_entry[$2, i] = $6; opt_desc[$2, i] = $7 }
$1 == "sub" { i = ++nsub[$2]; sub_name[$2, i] = $3; sub_desc[$2, i] = $4 }

END {
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    f = dir "/" page(p) ".1"
    title = toupper(page(p))
    print ".\\\" Written by packaging/gen-cli-docs.sh from `" command(p) " --help`." > f
    print ".TH \"" esc(title) "\" \"1\" \"\" \"benchguard " esc(version) "\" \"User Commands\"" > f
    print ".SH NAME" > f
    print esc(page(p)) " \\- " esc(desc[p]) > f

    print ".SH SYNOPSIS" > f
    u = usage[p]
    c = command(p)
    if (substr(u, 1, length(c) + 1) == c " ") u = substr(u, length(c) + 2)
    else if (u == c) u = ""
    print ".B " esc(c) > f
    if (u != "") print esc(u) > f

    print ".SH DESCRIPTION" > f
    print esc(desc[p]) > f
    if (p == "") {
      print ".PP" > f
      print "Each command has a page of its own, named after it: " \
            "\\fBbenchguard\\-run\\fR(1) for \\fBbenchguard run\\fR." > f
    }

    if (npos[p] > 0) {
      print ".SH ARGUMENTS" > f
      for (i = 1; i <= npos[p]; i++) item(positional_entry(pos_entry[p, i]), pos_desc[p, i], f)
    }

    if (nsub[p] > 0) {
      print ".SH COMMANDS" > f
      for (i = 1; i <= nsub[p]; i++) {
        q = (p == "" ? "" : p " ") sub_name[p, i]
        item("\\fB" esc(sub_name[p, i]) "\\fR", sub_desc[p, i], f)
        print ".br" > f
        print "See \\fB" esc(page(q)) "\\fR(1)." > f
      }
    }

    if (nopt[p] > 0) {
      print ".SH OPTIONS" > f
      for (i = 1; i <= nopt[p]; i++) item(option_entry(opt_entry[p, i]), opt_desc[p, i], f)
    }

    # Options of the commands above this one may follow it too (benchguard's are global).
    if (p != "") {
      header = 0
      for (a = parent(p); ; a = parent(a)) {
        for (i = 1; i <= nopt[a]; i++) {
          if (opt_names[a, i] ~ /(^| )(--help|--version)( |$)/) continue
          if (!header) {
            print ".SH GLOBAL OPTIONS" > f
            print "These options of \\fB" esc(command(a)) "\\fR may follow the command too." > f
            header = 1
          }
          item(option_entry(opt_entry[a, i]), opt_desc[a, i], f)
        }
        if (a == "") break
      }
    }

    see = ""
    if (p != "") {
      see = "\\fBbenchguard\\fR(1)"
      if (parent(p) != "") see = see ", \\fB" esc(page(parent(p))) "\\fR(1)"
    }
    for (i = 1; i <= nsub[p]; i++) {
      q = (p == "" ? "" : p " ") sub_name[p, i]
      see = see (see == "" ? "" : ", ") "\\fB" esc(page(q)) "\\fR(1)"
    }
    if (see != "") {
      print ".SH SEE ALSO" > f
      print see > f
    }
    close(f)
  }
}
