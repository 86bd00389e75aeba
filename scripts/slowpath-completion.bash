# bash completion for slowpath(1).  `make install` puts it where
# bash-completion finds it; or: source scripts/slowpath-completion.bash
#
# Everything it offers comes from the binary being completed, so it never
# goes stale: commands from `slowpath --help`, options from `slowpath
# CMD --help`, policy names from `slowpath policies`, sections and keys
# (for --set and check --help-keys) from `slowpath check --help-keys`.

_slowpath_commands()
{
	"$1" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p'
}

_slowpath_options()
{
	"$1" "$2" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u
}

_slowpath_policies()
{
	"$1" policies 2>/dev/null | awk 'NR > 1 { print $1 }'
}

_slowpath_sections()
{
	"$1" check --help-keys 2>/dev/null | sed -n 's/^\[\([a-z]*\).*/\1/p'
}

# What --set takes: section.key for every key, and the bare key where
# only one section has it (vm.defrag_mode)
_slowpath_keys()
{
	"$1" check --help-keys 2>/dev/null | awk '
		/^\[/ { s = substr($1, 2); sub(/\]$/, "", s); next }
		/^  [^ ]/ && $1 != "key" { print s "." $1; n[$1]++ }
		END { for (k in n) if (n[k] == 1) print k }' | sort
}

_slowpath()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local sp=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} head list
	COMPREPLY=()
	[[ $sp == "~/"* ]] && sp=$HOME/${sp#"~/"}
	if ((COMP_CWORD == 1)); then
		mapfile -t COMPREPLY < <(compgen -W "$(_slowpath_commands "$sp") help --help --version" -- "$cur")
		return
	fi
	if [[ $cmd == help ]]; then
		((COMP_CWORD == 2)) &&
			mapfile -t COMPREPLY < <(compgen -W "$(_slowpath_commands "$sp")" -- "$cur")
		return
	fi
	case $prev in
	--policy)
		# a comma-separated list for sweep: complete the last item
		head=
		[[ $cur == *,* ]] && head=${cur%,*},
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$(_slowpath_policies "$sp") all" -- "${cur##*,}")
		return ;;
	--set)
		mapfile -t COMPREPLY < <(compgen -S = -W "$(_slowpath_keys "$sp")" -- "$cur")
		compopt -o nospace 2>/dev/null
		return ;;
	--help-keys)
		mapfile -t COMPREPLY < <(compgen -W "$(_slowpath_sections "$sp")" -- "$cur")
		return ;;
	--out|--plots|--proc-root|--collect)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	--html|--metrics-from)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	--seed|--seeds|--scale|--iterations|--jobs|-j|--interval|--duration|--names|--title|--branch-at|--branch|\
	--percent-limit|--kind|--time|--format|--diff)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_slowpath_options "$sp" "$cmd")" -- "$cur")
		return
	fi
	case $cmd in
	run|check|sweep)
		mapfile -t COMPREPLY < <(compgen -f -X '!*.ini' -- "$cur"; compgen -d -- "$cur") ;;
	compare|explain|report)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	record)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
	probe)
		mapfile -t COMPREPLY < <(compgen -W "wakeup" -- "$cur") ;;
	esac
}
complete -F _slowpath slowpath
