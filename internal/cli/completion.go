package cli

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// CompletionCommand is "completion bash|zsh|fish": it prints the tool's
// shell completion script, to load from the shell's start-up file:
//
//	source <(hwctl completion bash)             # ~/.bashrc
//	source <(hwctl completion zsh)              # ~/.zshrc, after compinit
//	hwctl completion fish | source              # ~/.config/fish/config.fish
//
// bash and zsh ask the tool itself for the words that fit (urfave/cli's
// --generate-bash-completion, which Setup turns on), so the completion
// always knows the binary's own commands and flags; fish gets a script of
// them.
func CompletionCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: `Load it from your shell's start-up file:
   bash:  source <(TOOL completion bash)          in ~/.bashrc
   zsh:   source <(TOOL completion zsh)           in ~/.zshrc, after compinit
   fish:  TOOL completion fish | source           in ~/.config/fish/config.fish`,
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return Usagef("completion needs one shell: bash, zsh or fish")
			}
			name := c.App.Name
			var script string
			switch c.Args().First() {
			case "bash":
				script = strings.ReplaceAll(bashCompletion, "TOOL", name)
			case "zsh":
				script = strings.ReplaceAll(zshCompletion, "TOOL", name)
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				script = s
			default:
				return Usagef("completion: %q is not bash, zsh or fish", c.Args().First())
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}

// bashCompletion asks TOOL for the words after the ones typed.
const bashCompletion = `# bash completion for TOOL (TOOL completion bash)
_TOOL_complete() {
	local cur=${COMP_WORDS[COMP_CWORD]} words
	if [[ $cur == -* ]]; then
		words=$("${COMP_WORDS[0]}" "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$cur" --generate-bash-completion 2>/dev/null)
	else
		words=$("${COMP_WORDS[0]}" "${COMP_WORDS[@]:1:COMP_CWORD-1}" --generate-bash-completion 2>/dev/null)
	fi
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _TOOL_complete TOOL
`

// zshCompletion asks TOOL for the words, with their descriptions.
const zshCompletion = `#compdef TOOL
# zsh completion for TOOL (TOOL completion zsh)
_TOOL_complete() {
	local -a opts
	local cur=${words[-1]}
	if [[ $cur == -* ]]; then
		opts=("${(@f)$(0=zsh ${words[1]} ${words[2,-2]} $cur --generate-bash-completion 2>/dev/null)}")
	else
		opts=("${(@f)$(0=zsh ${words[1]} ${words[2,-2]} --generate-bash-completion 2>/dev/null)}")
	fi
	if [[ -n ${opts[1]} ]]; then
		_describe 'values' opts
	else
		_files
	fi
}
compdef _TOOL_complete TOOL
`
