# Writes the shell functions that tell the completion scripts (completion.bash, completion.zsh)
# what benchguard accepts, from the model gen-cli-docs.sh builds. The same text is valid bash
# and zsh. A command path is "" for benchguard itself, "db check" for `benchguard db check`.
#   _benchguard_subcommands PATH      its subcommands
#   _benchguard_options PATH          its options, with those of the commands above it
#   _benchguard_value_options PATH    those of its options that take a value
#   _benchguard_choices PATH OPTION   the values OPTION takes, when they are a fixed list
#   _benchguard_described KIND PATH   "name:description" lines of its subcommands (KIND
#                                     commands) or options (KIND options), for zsh
# Each prints words separated by spaces, or lines for _benchguard_described.

# s in single quotes, for the shell.
function sq(s,   r, i, c) {
  r = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    r = r (c == "'" ? "'\\''" : c)
  }
  return "'" r "'"
}

function parent(p) {
  if (p !~ / /) return ""
  sub(/ [^ ]*$/, "", p)
  return p
}

# Adds option i of command path a to the options of command path p, unless a name of it is
# there already.
function add_option(p, a, i,   n, names, j, k) {
  n = split(opt_names[a, i], names, " ")
  for (j = 1; j <= n; j++)
    if ((p SUBSEP names[j]) in has) return
  k = ++neff[p]
  eff_names[p, k] = opt_names[a, i]
  eff_takes[p, k] = opt_takes[a, i]
  eff_choices[p, k] = opt_choices[a, i]
  eff_desc[p, k] = opt_desc[a, i]
  for (j = 1; j <= n; j++) has[p, names[j]] = 1
}

$1 == "desc" { paths[++npaths] = $2 }
$1 == "opt" {
  i = ++nopt[$2]
  opt_names[$2, i] = $3
  opt_takes[$2, i] = $4
  opt_choices[$2, i] = $5
  opt_desc[$2, i] = $7
}
$1 == "sub" { i = ++nsub[$2]; sub_name[$2, i] = $3; sub_desc[$2, i] = $4 }

END {
  # The options each command accepts: its own, then those of the commands above it (global
  # options follow a subcommand too), less their --help and --version.
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    for (i = 1; i <= nopt[p]; i++) add_option(p, p, i)
    if (p == "") continue
    for (a = parent(p); ; a = parent(a)) {
      for (i = 1; i <= nopt[a]; i++)
        if (opt_names[a, i] !~ /(^| )(--help|--version)( |$)/) add_option(p, a, i)
      if (a == "") break
    }
  }

  print "_benchguard_subcommands() {"
  print "  case $1 in"
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    if (nsub[p] == 0) continue
    s = ""
    for (i = 1; i <= nsub[p]; i++) s = s (i > 1 ? " " : "") sub_name[p, i]
    print "    (" sq(p) ") printf '%s\\n' " sq(s) " ;;"
  }
  print "  esac"
  print "}"
  print ""

  print "_benchguard_options() {"
  print "  case $1 in"
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    s = ""
    for (i = 1; i <= neff[p]; i++) s = s (i > 1 ? " " : "") eff_names[p, i]
    print "    (" sq(p) ") printf '%s\\n' " sq(s) " ;;"
  }
  print "  esac"
  print "}"
  print ""

  print "_benchguard_value_options() {"
  print "  case $1 in"
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    s = ""
    for (i = 1; i <= neff[p]; i++)
      if (eff_takes[p, i] == 1) s = s (s == "" ? "" : " ") eff_names[p, i]
    if (s != "") print "    (" sq(p) ") printf '%s\\n' " sq(s) " ;;"
  }
  print "  esac"
  print "}"
  print ""

  print "_benchguard_choices() {"
  print "  case $1 in"
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    body = ""
    for (i = 1; i <= neff[p]; i++) {
      if (eff_choices[p, i] == "") continue
      pattern = eff_names[p, i]
      gsub(/ /, "|", pattern)
      body = body "        (" pattern ") printf '%s\\n' " sq(eff_choices[p, i]) " ;;\n"
    }
    if (body == "") continue
    print "    (" sq(p) ")"
    print "      case $2 in"
    printf "%s", body
    print "      esac ;;"
  }
  print "  esac"
  print "}"

  if (shell != "zsh") exit
  print ""
  print "_benchguard_described() {"
  print "  case $1/$2 in"
  for (k = 1; k <= npaths; k++) {
    p = paths[k]
    if (nsub[p] > 0) {
      print "    (" sq("commands/" p) ") printf '%s\\n' \\"
      for (i = 1; i <= nsub[p]; i++)
        print "      " sq(sub_name[p, i] ":" sub_desc[p, i]) (i < nsub[p] ? " \\" : " ;;")
    }
    if (neff[p] > 0) {
      print "    (" sq("options/" p) ") printf '%s\\n' \\"
      n = 0
      for (i = 1; i <= neff[p]; i++) n += split(eff_names[p, i], names, " ")
      m = 0
      for (i = 1; i <= neff[p]; i++) {
        c = split(eff_names[p, i], names, " ")
        for (j = 1; j <= c; j++) {
          m++
          print "      " sq(names[j] ":" eff_desc[p, i]) (m < n ? " \\" : " ;;")
        }
      }
    }
  }
  print "  esac"
  print "}"
}
