#!/usr/bin/env python3
"""cli_docs.py: the man page and the bash completion from the programs' own
option tables (PROGRAM --dump-options, bench/cli_dump.c).

usage: cli_docs.py --man-template share/man/stubbench.1.in --man OUT.1
                   --completion-template share/completion/stubbench.bash.in
                   --completion OUT.bash PROGRAM...

The man template's lines @SYNOPSIS@ and @OPTIONS@ become the sections of
those names; @VERSION@ becomes the version. The completion template's line
@COMMANDS@ becomes _stubbench_table, which sets the words of each command.
tests/cli/cli_docs.py imports load() and commands() to check both files."""
import argparse
import json
import re
import subprocess
import sys
import textwrap

# Every command of the project answers these (bench/cli.c).
ALWAYS = [{"name": "help", "arg": None}, {"name": "version", "arg": None}]


def load(programs):
    """The --dump-options documents of the programs, in order."""
    dumps = []
    for path in programs:
        out = subprocess.run([path, "--dump-options"], check=True, capture_output=True, text=True)
        dumps.append(json.loads(out.stdout))
    return dumps


def commands(dumps):
    """One dict per command of every program: program, sub (None for the
    program's own), title ("stubbench lab"), built, part, and for a built
    one its dump entry's fields with groups as the group dicts."""
    out = []
    for d in dumps:
        for c in d["commands"]:
            cmd = dict(c, program=d["program"], sub=c["name"], version=d["version"])
            cmd["title"] = d["program"] + (" " + c["name"] if c["name"] else "")
            if c["built"]:
                cmd["groups"] = [d["groups"][i] for i in c["groups"]]
            out.append(cmd)
    return out


def option_word(o):
    """How an option is written on the command line, before its value."""
    return "-" + o["name"] if len(o["name"]) == 1 else "--" + o["name"]


def usage(cmd):
    """The command as its --help's usage line names it (bench/cli.c)."""
    return cmd["title"] + " [OPTIONS]" + (" " + cmd["operands"] if cmd.get("operands") else "")


# ---- troff ----

def esc(text):
    """Text for a troff text line: backslashes and minus signs escaped."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def text_lines(text, width=78):
    """Filled text as troff source lines, none starting a request."""
    lines = textwrap.wrap(esc(text), width, break_on_hyphens=False)
    return ["\\&" + l if l[:1] in (".", "'") else l for l in lines]


def expand(help_text, cmds):
    """The help text with its %X markers replaced by the commands' values,
    each value followed by the commands it is for where they differ."""
    def one(m):
        by_value = {}
        for c in cmds:
            by_value.setdefault(c["markers"][m.group(1)], []).append(c["title"])
        if len(by_value) == 1:
            return next(iter(by_value))
        parts = []
        for value, titles in by_value.items():
            names = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
            parts.append(value + " for " + names)
        return ", ".join(parts)
    return re.sub(r"%([A-Z])", one, help_text.replace("\n", " "))


def shared_groups(cmds):
    """The groups of all built commands, each once, with the commands that
    take it: [(group, [cmd, ...])] in the order they first appear."""
    seen = []
    for c in cmds:
        if not c["built"]:
            continue
        for g in c["groups"]:
            for entry in seen:
                if entry[0] == g:
                    entry[1].append(c)
                    break
            else:
                seen.append((g, [c]))
    return seen


def man_synopsis(cmds):
    out = []
    for c in cmds:
        if out:
            out.append(".br")
        out.append(".B " + c["title"])
        out.append("[\\fIOPTIONS\\fR]")
        if not c["built"]:
            out.append("(not in this build: %s was off)" % c["part"])
            continue
        if c["operands"]:
            out.append(".I " + esc(c["operands"]))
        if c["passthrough_prefix"]:
            out.append("[\\fB%s\\fIFLAG\\fR...]" % esc(c["passthrough_prefix"]))
    return out


def man_option_head(o):
    head = "\\fB" + esc(option_word(o)) + "\\fR"
    if o["arg"]:
        head += (" " if len(o["name"]) == 1 else "=") + "\\fI" + esc(o["arg"]) + "\\fR"
    return head


def man_options(cmds):
    out = ["Each command takes the groups of options below that name it, and also",
           "\\fB\\-h\\fR or \\fB\\-\\-help\\fR and \\fB\\-\\-version\\fR (status 0).", ".PP"]
    for c in cmds:
        if c["built"]:
            titles = [g["title"] for g in c["groups"]]
            out += [".TP", ".B " + c["title"]] + text_lines(", ".join(titles) + ".")
            if c["passthrough_prefix"]:
                out += text_lines("Every argument starting with %s goes to Google Benchmark "
                                  "untouched." % c["passthrough_prefix"])
        else:
            out += [".TP", ".B " + c["title"], "Not in this build (%s was off)." % esc(c["part"])]
    for g, takers in shared_groups(cmds):
        out += [".SS " + esc(g["title"])]
        out += text_lines("Taken by " + ", ".join(c["title"] for c in takers) + ".")
        for o in g["options"]:
            out += [".TP", man_option_head(o)] + text_lines(expand(o["help"], takers))
    return out


def write_man(template, cmds, path):
    parts = {"@SYNOPSIS@": man_synopsis(cmds), "@OPTIONS@": man_options(cmds)}
    version = cmds[0]["version"]
    lines = []
    for line in open(template, encoding="utf-8").read().splitlines():
        lines += parts.get(line, [line.replace("@VERSION@", version)])
    open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")


# ---- bash ----

def completion_words(cmd):
    """The command's words as _stubbench_table sets them."""
    opts, files, dirs, values = [], [], [], []
    for o in [o for g in cmd["groups"] for o in g["options"]] + ALWAYS:
        word = option_word(o)
        opts.append(word + ("=" if o["arg"] and len(o["name"]) > 1 else ""))
        if o["arg"] == "FILE":
            files.append(word)
        elif o["arg"] == "DIR":
            dirs.append(word)
        if o.get("values"):
            values.append(word + "=" + ",".join(o["values"]))
    if cmd["passthrough_prefix"]:
        opts.append(cmd["passthrough_prefix"])
    return {"opts": opts, "files": files, "dirs": dirs, "values": values,
            "operands": ["1"] if cmd["operands"] else []}


def completion_table(cmds):
    out = ["# _stubbench_table PROGRAM SUBCOMMAND (empty: the program's own command)",
           "# sets subs, opts, files, dirs, values and operands; returns 1 for none.",
           "_stubbench_table()", "{", '    case "$1 $2" in']
    for c in cmds:
        if not c["built"]:
            continue
        words = completion_words(c)
        words["subs"] = [s["sub"] for s in cmds if not c["sub"] and s["sub"] and s["built"]
                         and s["program"] == c["program"]]
        out.append('    "%s %s")' % (c["program"], c["sub"] or ""))
        for key in ("subs", "opts", "files", "dirs", "values", "operands"):
            out.append('        %s="%s"' % (key, " ".join(words[key])))
        out.append("        ;;")
    out += ["    *) return 1 ;;", "    esac", "}"]
    return out


def write_completion(template, cmds, path):
    lines = []
    for line in open(template, encoding="utf-8").read().splitlines():
        lines += completion_table(cmds) if line == "@COMMANDS@" else [line]
    open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--man-template", required=True)
    ap.add_argument("--man", required=True)
    ap.add_argument("--completion-template", required=True)
    ap.add_argument("--completion", required=True)
    ap.add_argument("programs", nargs="+")
    a = ap.parse_args()
    try:
        cmds = commands(load(a.programs))
    except (OSError, subprocess.CalledProcessError, ValueError) as e:
        sys.exit("cli_docs.py: cannot read the option tables: %s" % e)
    write_man(a.man_template, cmds, a.man)
    write_completion(a.completion_template, cmds, a.completion)


if __name__ == "__main__":
    main()
