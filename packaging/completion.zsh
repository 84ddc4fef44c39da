
# _benchguard: completes the subcommands of benchguard, their options (with descriptions),
# the fixed values of an option (--format json, --format=json) and file names elsewhere.
# After `run --` it completes a command line.
_benchguard() {
  local cmdpath='' word prev choices
  local -i i
  local -a items

  # The command path the words before the cursor select, skipping options and their values.
  for (( i = 2; i < CURRENT; i++ )); do
    word=${words[i]}
    if [[ $word == -- ]]; then
      words=("${(@)words[i+1,-1]}")
      (( CURRENT -= i ))
      _normal
      return
    fi
    if [[ $word == -* ]]; then
      if [[ $word != *=* && " $(_benchguard_value_options "$cmdpath") " == *" $word "* ]]; then
        (( i++ ))
      fi
      continue
    fi
    if [[ " $(_benchguard_subcommands "$cmdpath") " == *" $word "* ]]; then
      cmdpath=${cmdpath:+$cmdpath }$word
    fi
  done

  # The value of an option: "--format json" or "--format=json".
  prev=${words[CURRENT-1]}
  if [[ $PREFIX == -*=* ]]; then
    prev=${PREFIX%%=*}
    compset -P '*='
  elif [[ $PREFIX == -* ]]; then
    prev=''
  fi
  if [[ $prev == -* && " $(_benchguard_value_options "$cmdpath") " == *" $prev "* ]]; then
    choices=$(_benchguard_choices "$cmdpath" "$prev")
    if [[ -n $choices ]]; then
      compadd -- ${=choices}
    else
      _files
    fi
    return
  fi

  if [[ $PREFIX == -* ]]; then
    items=("${(@f)$(_benchguard_described options "$cmdpath")}")
    _describe -t options option items
    return
  fi

  if [[ -n $(_benchguard_subcommands "$cmdpath") ]]; then
    items=("${(@f)$(_benchguard_described commands "$cmdpath")}")
    _describe -t commands command items
  else
    _files
  fi
}

_benchguard "$@"
