
# _benchguard: completes the subcommands of benchguard, their options, the fixed values of an
# option (--format json, compare --statistic median) and file names elsewhere. After
# `run --` it completes a command line. Uses bash-completion's _init_completion when loaded.
_benchguard() {
  # split: set by _init_completion -s.
  # shellcheck disable=SC2034
  local cur prev words cword split
  if declare -F _init_completion >/dev/null 2>&1; then
    _init_completion -s -n : || return
  else
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
    cur=${words[cword]}
    prev=${words[cword - 1]}
    # Without bash-completion, "--format=js" arrives as "--format" "=" "js".
    if [[ $cur == = ]]; then
      cur=''
    elif [[ $prev == = && $cword -ge 2 ]]; then
      prev=${words[cword - 2]}
    fi
  fi

  # The command path the words before the cursor select, skipping options and their values.
  local cmdpath='' word i
  for ((i = 1; i < cword; i++)); do
    word=${words[i]}
    if [[ $word == -- ]]; then
      if ((i + 1 == cword)); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
      else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return 0
    fi
    if [[ $word == = ]]; then
      ((i++))
      continue
    fi
    if [[ $word == -* ]]; then
      if [[ $word != *=* && " $(_benchguard_value_options "$cmdpath") " == *" $word "* ]]; then
        ((i++))
      fi
      continue
    fi
    if [[ " $(_benchguard_subcommands "$cmdpath") " == *" $word "* ]]; then
      cmdpath=${cmdpath:+$cmdpath }$word
    fi
  done

  # The value of an option.
  if [[ $prev == -* && " $(_benchguard_value_options "$cmdpath") " == *" $prev "* ]]; then
    local choices
    choices=$(_benchguard_choices "$cmdpath" "$prev")
    if [[ -n $choices ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
    else
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
  fi

  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_benchguard_options "$cmdpath")" -- "$cur")
    return 0
  fi

  local subcommands
  subcommands=$(_benchguard_subcommands "$cmdpath")
  if [[ -n $subcommands ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
  else
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
  return 0
}

complete -F _benchguard benchguard
