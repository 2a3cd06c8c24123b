#!/usr/bin/env python3
"""cli_docs.py GENERATOR MAN COMPLETION PROGRAM...: the man page and the bash
completion the build wrote (cmake/cli_docs.py, GENERATOR) agree with the
programs' option tables (PROGRAM --dump-options):
  - every built command's options are the ones the man page lists for it,
    and the ones the completion offers after "-";
  - every option the man page names anywhere (prose too) is a program's;
  - the completion offers the subcommands, files for FILE options and
    -o FILE, and the words of --format and --thunk;
  - each SYNOPSIS line is the usage line of that command's --help (exit 0),
    or, for a command not built, running it exits 2;
  - each EXAMPLES line runs with --help appended (exit 0): its options
    exist for that command and have their values.
Needs bash; not man or groff."""
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402


def plain(troff):
    """A troff source line as text: font escapes gone, \\- as -."""
    t = re.sub(r"\\f[BIRP]", "", troff).replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")
    return re.sub(r"^\.(B|I|BR|IR) ", "", t)


def sections(man):
    """{section name: its source lines} of the man page."""
    out, name = {}, None
    for line in man.splitlines():
        if line.startswith(".SH "):
            name = line[4:].strip('"')
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def dump_options(cmd, gen):
    words = {gen.option_word(o) for g in cmd["groups"] for o in g["options"]}
    return words | {"--help", "--version"}


def man_options_by_command(lines):
    """{command title: options} from the OPTIONS section: each .SS group's
    .TP heads, for every command its "Taken by" line names."""
    out, takers, i = {}, [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SS "):
            text = []
            for follow in lines[i + 1:]:
                if follow.startswith("."):
                    break
                text.append(plain(follow))
            m = re.match(r"Taken by (.*)\.$", " ".join(text))
            takers = m.group(1).split(", ") if m else []
            check(m is not None, "man: group %s has no 'Taken by' line" % line[4:])
        elif line == ".TP" and takers and i + 1 < len(lines):
            word = re.match(r"(-[a-z]\b|--[a-z][a-z0-9-]*)", plain(lines[i + 1]))
            for t in takers:
                out.setdefault(t, set()).add(word.group(1) if word else "?")
        i += 1
    return out


def check_man(cmds, gen, man):
    secs = sections(man)
    by_cmd = man_options_by_command(secs.get("OPTIONS", []))
    known = {"--help", "--version", "-h"}  # -h: --help in every command (bench/cli.c)
    prefixes = [c["passthrough_prefix"] for c in cmds if c["built"] and c["passthrough_prefix"]]
    for c in cmds:
        if not c["built"]:
            continue
        want = dump_options(c, gen) - {"--help", "--version"}
        known |= want
        got = by_cmd.get(c["title"], set())
        check(got == want, "man: %s lists %s, its table has %s"
              % (c["title"], sorted(got), sorted(want)))
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9_-]*|-[a-z])(?![\w-])", plain(man)))
    # A build without a part (kernel, Google Benchmark) has not their
    # commands' tables: the options only they take are not checked there.
    partial = any(not c["built"] for c in cmds) or not any(c["program"] == "stubbench-gbench" for c in cmds)
    excused = [o for o in sorted(named) if partial and not (o in known or any(o.startswith(p) for p in prefixes))]
    if excused:
        print("a build without every part: %d options of the man page not checked (%s)"
              % (len(excused), " ".join(excused)))
    for o in sorted(named):
        check(o in known or any(o.startswith(p) for p in prefixes) or o in excused,
              "man: names %s, which no command takes" % o)
    check("--past-runs" in named and "--quiet-levels" in named,
          "man: lacks --past-runs or --quiet-levels")


def complete(completion, words, cwd=None, wordbreaks=None):
    """COMPREPLY for the command line words (the last one is completed)."""
    line = " ".join(words)
    script = ['source "$1"', "COMP_WORDS=(%s)" % " ".join(shlex.quote(w) for w in words),
              "COMP_CWORD=%d" % (len(words) - 1), "COMP_LINE=%s" % shlex.quote(line),
              "COMP_POINT=%d" % len(line)]
    if wordbreaks is not None:
        script.append("COMP_WORDBREAKS=%s" % shlex.quote(wordbreaks))
    script += ['_stubbench "${COMP_WORDS[0]}"', 'printf "%s\\n" "${COMPREPLY[@]}"']
    out = subprocess.run(["bash", "-c", "\n".join(script), "bash", completion], cwd=cwd,
                         capture_output=True, text=True)
    check(out.returncode == 0, "completion: %s: bash says %s" % (line, out.stderr.strip()))
    return {w for w in out.stdout.splitlines() if w}


def check_completion(cmds, gen, completion):
    for c in cmds:
        if not c["built"]:
            continue
        words = [c["program"]] + ([c["sub"]] if c["sub"] else []) + ["-"]
        got = {w.rstrip("=") for w in complete(completion, words)}
        want = dump_options(c, gen)
        if c["passthrough_prefix"]:
            want.add(c["passthrough_prefix"])
        check(got == want, "completion: %s offers %s, its table has %s"
              % (" ".join(words), sorted(got), sorted(want)))
        if c["sub"] is None:
            subs = {s["sub"] for s in cmds
                    if s["program"] == c["program"] and s["sub"] and s["built"]}
            got = complete(completion, [c["program"], ""])
            check(got == subs, "completion: %s offers %s, not the subcommands %s"
                  % (c["program"], sorted(got), sorted(subs)))
        for g in c["groups"]:
            for o in g["options"]:
                if o["values"]:
                    word = gen.option_word(o)
                    got = complete(completion, words[:-1] + [word + "="])
                    check(got == set(o["values"]), "completion: %s %s= offers %s, not %s"
                          % (c["title"], word, sorted(got), o["values"]))
                    got = complete(completion, words[:-1] + [word + "="], wordbreaks=" \t\n")
                    check(got == {word + "=" + v for v in o["values"]},
                          "completion without '=' in COMP_WORDBREAKS: %s %s= offers %s"
                          % (c["title"], word, sorted(got)))
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "run.json"), "w").close()
        check(complete(completion, ["stubbench", "--blocks=r"], cwd=d) == {"run.json"},
              "completion: --blocks= does not offer files")
        check(complete(completion, ["stubbench", "plot", "-o", "r"], cwd=d) == {"run.json"},
              "completion: plot -o does not offer files")
        check(complete(completion, ["stubbench", "compare", "r"], cwd=d) == {"run.json"},
              "completion: compare does not offer its operand files")
        open(os.path.join(d, "my run.json"), "w").close()
        check(complete(completion, ["stubbench", "compare", "m"], cwd=d) == {"my run.json"},
              "completion: a file name with a space is not one word")
        check(complete(completion, ["stubbench", "--format=j"], cwd=d) == {"json"},
              "completion: --format=j does not offer json")
        # The words of --variant (the registry's names), --shape and --flavour.
        check({"private", "host-private"} <= complete(completion, ["stubbench", "--variant="], cwd=d),
              "completion: --variant= does not offer the variants")
        check(complete(completion, ["stubbench", "lab", "--shape=in"], cwd=d) == {"in-loop"},
              "completion: --shape=in does not offer in-loop")
        check(complete(completion, ["stubbench", "--flavour=s"], cwd=d) == {"seed001"},
              "completion: --flavour=s does not offer seed001")


def synopsis_lines(lines):
    """The SYNOPSIS section's commands, one string each (.br between them)."""
    out, cur = [], []
    for line in lines + [".br"]:
        if line == ".br":
            if cur:
                out.append(" ".join(cur))
            cur = []
        elif not line.startswith(".") or re.match(r"\.(B|I) ", line):
            cur.append(plain(line))
    return out


def program_path(programs, name):
    return next((p for p in programs if os.path.basename(p) == name), None)


def check_synopsis(cmds, programs, man):
    lines = synopsis_lines(sections(man).get("SYNOPSIS", []))
    check(len(lines) == len(cmds),
          "man: %d SYNOPSIS lines for %d commands" % (len(lines), len(cmds)))
    for line in lines:
        c = next((c for c in cmds if line.startswith(c["title"] + " [OPTIONS]")), None)
        check(c is not None, "man: SYNOPSIS line '%s' names no command" % line)
        if c is None:
            continue
        argv = [program_path(programs, c["program"])] + ([c["sub"]] if c["sub"] else [])
        argv.append("--help")
        out = subprocess.run(argv, capture_output=True, text=True)
        if not c["built"]:
            check(out.returncode == 2,
                  "%s (not built): status %d, not 2" % (c["title"], out.returncode))
            continue
        shown = line
        if c["passthrough_prefix"]:
            shown = re.sub(r" \[%s\S*\]$" % re.escape(c["passthrough_prefix"]), "", line)
        first = out.stdout.splitlines()[0] if out.stdout else ""
        check(out.returncode == 0 and first == "usage: " + shown,
              "man: SYNOPSIS '%s', but %s --help says '%s' (status %d)"
              % (line, c["title"], first, out.returncode))


def check_examples(cmds, programs, man):
    lines, inside, n = sections(man).get("EXAMPLES", []), False, 0
    for line in lines:
        inside = (inside or line == ".EX") and line != ".EE"
        text = plain(line)
        if not inside or line.startswith("."):
            continue
        words = shlex.split(re.split(r"\s[>|]", text)[0])  # the command, without redirections
        path = program_path(programs, words[0]) if words else None
        if not path:
            continue
        n += 1
        sub = next((c for c in cmds if len(words) > 1 and c["program"] == words[0]
                    and c["sub"] == words[1]), None)
        out = subprocess.run([path] + words[1:] + ["--help"], capture_output=True, text=True)
        want = 2 if sub and not sub["built"] else 0
        check(out.returncode == want, "man: example '%s' with --help: status %d (%s)"
              % (text, out.returncode, out.stderr.strip()))
    check(n >= 5, "man: only %d examples found" % n)


def main():
    generator, man_path, completion = sys.argv[1:3] + [os.path.abspath(sys.argv[3])]
    programs = sys.argv[4:]
    spec = importlib.util.spec_from_file_location("cli_docs", generator)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    cmds = gen.commands(gen.load(programs))
    man = open(man_path, encoding="utf-8").read()
    check_man(cmds, gen, man)
    check_completion(cmds, gen, completion)
    check_synopsis(cmds, programs, man)
    check_examples(cmds, programs, man)
    n_opts = sum(len(dump_options(c, gen)) for c in cmds if c["built"])
    print("%d commands, %d options" % (len(cmds), n_opts))
    checks_done("cli_docs")


if __name__ == "__main__":
    main()
