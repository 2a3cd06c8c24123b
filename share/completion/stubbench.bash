# bash completion for stubbench: subcommands, their options, and values.
_stubbench()
{
    local cur prev sub
    cur=${COMP_WORDS[COMP_CWORD]}
    sub=${COMP_WORDS[1]}
    local common="--batch= --cpu= --time= --samples= --seed= --format= --config= --states= --processes= --blocks= --quiet-levels= --verbose --help --version"
    case $cur in
        --format=*) COMPREPLY=($(compgen -W "table seed json csv gbench" -- "${cur#--format=}")); return ;;
        --metric=*) COMPREPLY=($(compgen -W "delta cycles" -- "${cur#--metric=}")); return ;;
        --layout=*) COMPREPLY=($(compgen -W "packed spread packed,spread" -- "${cur#--layout=}")); return ;;
        --shape=*) COMPREPLY=($(compgen -W "per-run in-loop all htab" -- "${cur#--shape=}")); return ;;
        --variant=*) COMPREPLY=($(compgen -W "baseline private hybrid all" -- "${cur#--variant=}")); return ;;
        --config=*|--plot=*|--dump-jit=*|--obj=*|--output=*|--blocks=*|--quiet-levels=*) return ;;
    esac
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "lab kernel footprint compare plot $common --variant= --list --calls= --counters= --placements=" -- "$cur"))
        return
    fi
    case $sub in
        lab) COMPREPLY=($(compgen -W "$common --shape= --plot=" -- "$cur")) ;;
        kernel) COMPREPLY=($(compgen -W "$common --shape= --variant= --loads= --dump-jit= --obj= --prog= --thunk= --plot=" -- "$cur")) ;;
        footprint) COMPREPLY=($(compgen -W "--copies= --layout= --variant= --plot= --format= --cpu= --time= --samples= --seed= --processes= --blocks= --quiet-levels= --verbose --help" -- "$cur")) ;;
        compare) COMPREPLY=($(compgen -f -W "--metric= --help" -- "$cur")) ;;
        plot) [ "$prev" = -o ] && { COMPREPLY=($(compgen -f -- "$cur")); return; }
              COMPREPLY=($(compgen -f -W "-o --output= --help" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$common --variant= --list --calls= --counters= --placements=" -- "$cur")) ;;
    esac
    case "${COMPREPLY[*]}" in *=) compopt -o nospace 2>/dev/null ;; esac
}
complete -F _stubbench stubbench
