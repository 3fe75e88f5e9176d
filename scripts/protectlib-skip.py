#!/usr/bin/env python3
"""Let a hierarchical block's wrapper skip evaluations whose inputs did not change.

    protectlib-skip.py BLOCK_DIR...

In a --hierarchical build Verilator wraps each block (here the SM, wg_sm_<suffix>) in a
protect-lib: the parent calls the block's combo_update() from an `always @*` block every time
its combinational logic settles, and combo_update() copies the inputs into the block's model
and calls eval(). The parent's scheduler does not look at values, so the 15 SMs of the GPU top
are evaluated in every GPU clock cycle, including those whose clock is gated and whose inputs
are still: eval() runs the block's input-combinational region (`ico`) unconditionally, and
that region holds the SM's datapath cones driven by its inputs (lane enables, memory response
data, write ports). That was most of the cost of an idle link cycle (docs/gpu.md section 2.2).

This rewrites combo_update() in BLOCK_DIR/<block>.cpp (BLOCK_DIR = <Mdir>/V<block>) so that each input is compared
with the value the model already holds and eval() runs only when one of them changed (or on the
first call). Skipping is exact: the model was settled by the eval() that last set those inputs
(combo_update's or the clock edge's seq_update's, which changes only the clock), and eval() of
a settled model with unchanged inputs changes nothing. The outputs are still copied to the
parent on every call: the parent passes temporaries.

The rewrite expects the wrapper that Verilator 5.006 generates. A file of another shape is left
as it is, with a warning (the model stays correct, only slower); a file already rewritten is
left alone. Exit status 0 unless a BLOCK_DIR has no wrapper.
"""
import os
import re
import sys

MARK = "/* protectlib-skip: eval only on input change */"


def rewrite(text):
    """Return the rewritten wrapper text, or None with a reason when its shape is unexpected."""
    m = re.search(r"long long \w+_protectlib_combo_update\(.*?\n    \{\n(.*?)\n    \}\n", text, re.S)
    if not m:
        return None, "no combo_update function"
    out, assigns, evals = [], 0, 0
    for ln in m.group(1).split("\n"):
        ind = ln[: len(ln) - len(ln.lstrip())]
        scalar = re.match(r"^\s*handlep__V->(\w+) = (.*);$", ln)
        wide = re.match(r"^\s*VL_SET_W_SVLV\((\d+), handlep__V->(\w+), (.*)\);$", ln)
        if "static_cast<" in ln:
            out += [ln, f"{ind}bool changed__V = false;  {MARK}"]
        elif scalar:
            name, expr = scalar.groups()
            out.append(f"{ind}{{ const auto v__V = {expr}; if (handlep__V->{name} != v__V) "
                       f"{{ changed__V = true; handlep__V->{name} = v__V; }} }}")
            assigns += 1
        elif wide:
            bits, name, expr = wide.groups()
            words = (int(bits) + 31) // 32
            out.append(f"{ind}{{ EData w__V[{words}]; VL_SET_W_SVLV({bits}, w__V, {expr}); "
                       f"if (std::memcmp(w__V, &handlep__V->{name}[0], sizeof w__V)) "
                       f"{{ changed__V = true; std::memcpy(&handlep__V->{name}[0], w__V, sizeof w__V); }} }}")
            assigns += 1
        elif ln.strip() == "handlep__V->eval();":
            out.append(f"{ind}if (changed__V || !handlep__V->m_settled__V) "
                       f"{{ handlep__V->eval(); handlep__V->m_settled__V = true; }}")
            evals += 1
        else:
            out.append(ln)
    if not assigns or evals != 1 or MARK not in "\n".join(out):
        return None, f"unexpected combo_update body ({assigns} inputs, {evals} eval calls)"
    member = "    long long m_seqnum;\n"
    if text.count(member) != 1:
        return None, "no m_seqnum member in the container class"
    text = text[: m.start(1)] + "\n".join(out) + text[m.end(1):]
    text = text.replace(member, member + "    bool m_settled__V = false;  // combo_update: eval() done once\n")
    return "#include <cstring>\n" + text, None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: protectlib-skip.py BLOCK_DIR...")
    for d in sys.argv[1:]:
        f = os.path.join(d, os.path.basename(os.path.normpath(d))[1:] + ".cpp")
        if not os.path.isfile(f):
            sys.exit(f"protectlib-skip: {d}: no block wrapper {f}")
        text = open(f).read()
        if MARK in text:
            continue
        new, why = rewrite(text)
        if new is None:
            print(f"protectlib-skip: warning: {f}: {why}; left as generated (correct, but every "
                  "parent evaluation evaluates the block)", file=sys.stderr)
            continue
        with open(f, "w") as fh:
            fh.write(new)
        print(f"protectlib-skip: {f}: eval only on input change")


if __name__ == "__main__":
    main()
