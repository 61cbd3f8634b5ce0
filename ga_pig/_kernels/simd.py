"""Private numba intrinsics: dot products whose running sums are kept in vectors.

Numba leaves LLVM's SLP vectorizer off, so running sums written as scalars stay scalar chains. These intrinsics write
their loops in LLVM IR with the sums in vectors; every sum still adds its terms in order, so the results are bit for
bit those of the plain loops:

- `_dot8`: one weight row against eight interleaved columns (two 4-wide vectors),
  ``sums[k] += weights[at + n] * values[base + stride * n + k]`` for k < 8;
- `_dots4x2`: four weight rows, each against its own pair of columns (a 2-wide
  vector per row), ``sums[l][c] += weights[ats[l] + n] * values[bases[l] + stride * n + c]`` for n < counts[l] and
  c < 2; the steps all four rows take run side by side, each row's remaining steps after.

Nothing is checked at run time: the caller keeps every index in range.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

#: Sums of [`_dot8`][ga_pig._kernels.simd._dot8], as two vectors of four.
WIDTH = 8
#: Weight rows of [`_dots4x2`][ga_pig._kernels.simd._dots4x2].
ROWS = 4
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)


def _splat(builder, value, vector):
    """``value`` in every lane of ``vector``."""
    one = builder.insert_element(ir.Constant(vector, ir.Undefined), value, ir.Constant(_I32, 0))
    return builder.shuffle_vector(one, ir.Constant(vector, ir.Undefined),
                                  ir.Constant(ir.VectorType(_I32, vector.count), [0] * vector.count))


def _counted_loop(builder, start, stop, sums, step, name):
    """Emit ``for n in range(start, stop): sums = step(n, sums)`` with n and the vector sums as phis; return the
    sums after the loop, the builder placed after it."""
    entry = builder.basic_block
    header = builder.append_basic_block(f"{name}.header")
    body = builder.append_basic_block(f"{name}.body")
    done = builder.append_basic_block(f"{name}.done")
    builder.branch(header)
    builder.position_at_end(header)
    n = builder.phi(_I64)
    n.add_incoming(start, entry)
    phis = [builder.phi(s.type) for s in sums]
    for phi, s in zip(phis, sums, strict=True):
        phi.add_incoming(s, entry)
    builder.cbranch(builder.icmp_signed("<", n, stop), body, done)
    builder.position_at_end(body)
    following = step(n, phis)
    latch = builder.basic_block
    n.add_incoming(builder.add(n, ir.Constant(_I64, 1)), latch)
    for phi, s in zip(phis, following, strict=True):
        phi.add_incoming(s, latch)
    builder.branch(header)
    builder.position_at_end(done)
    return phis


def _term(builder, w_data, at, n, v_data, offset, vector, sum_):
    """sum_ + weights[at + n] * values[offset: offset + lanes], as vectors."""
    w = _splat(builder, builder.load(builder.gep(w_data, [builder.add(at, n)])), vector)
    x = builder.load(builder.bitcast(builder.gep(v_data, [offset]), vector.as_pointer()), align=8)
    return builder.fadd(sum_, builder.fmul(w, x))


def _data(context, builder, array_type, array):
    return context.make_array(array_type)(context, builder, array).data


def _dot8_codegen(context, builder, signature, args):
    weights, at, count, values, base, stride = args
    w_data = _data(context, builder, signature.args[0], weights)
    v_data = _data(context, builder, signature.args[3], values)
    vector = ir.VectorType(ir.DoubleType(), 4)

    def step(n, sums):
        row = builder.add(base, builder.mul(stride, n))
        return [_term(builder, w_data, at, n, v_data, builder.add(row, ir.Constant(_I64, 4 * c)), vector, s)
                for c, s in enumerate(sums)]

    zero = ir.Constant(vector, [0.0] * 4)
    sums = _counted_loop(builder, ir.Constant(_I64, 0), count, [zero, zero], step, "dot8")
    out = [builder.extract_element(s, ir.Constant(_I32, k)) for s in sums for k in range(4)]
    return context.make_tuple(builder, signature.return_type, out)


def _dots4x2_codegen(context, builder, signature, args):
    weights, ats, counts, values, bases, stride = args
    w_data = _data(context, builder, signature.args[0], weights)
    v_data = _data(context, builder, signature.args[3], values)
    vector = ir.VectorType(ir.DoubleType(), 2)
    ats = [builder.extract_value(ats, r) for r in range(ROWS)]
    counts = [builder.extract_value(counts, r) for r in range(ROWS)]
    bases = [builder.extract_value(bases, r) for r in range(ROWS)]
    low = counts[0]
    for c in counts[1:]:
        low = builder.select(builder.icmp_signed("<", c, low), c, low)

    def lanes(rows):
        def step(n, sums):
            return [_term(builder, w_data, ats[r], n, v_data, builder.add(bases[r], builder.mul(stride, n)), vector, s)
                    for r, s in zip(rows, sums, strict=True)]
        return step

    zero = ir.Constant(vector, [0.0, 0.0])
    sums = _counted_loop(builder, ir.Constant(_I64, 0), low, [zero] * ROWS, lanes(range(ROWS)), "dots4x2")
    sums = [_counted_loop(builder, low, counts[r], [sums[r]], lanes([r]), f"dots4x2.rest{r}")[0] for r in range(ROWS)]
    out = [builder.extract_element(s, ir.Constant(_I32, c)) for c in range(2) for s in sums]
    return context.make_tuple(builder, signature.return_type, out)


def _floats(*arrays) -> bool:
    return all(isinstance(a, types.Array) and a.dtype == types.float64 and a.ndim == 1 and a.layout == "C"
               for a in arrays)


@intrinsic
def _dot8(typingctx, weights, at, count, values, base, stride):
    """(sum over n < count of weights[at + n] * values[base + stride * n + k] for k in 0..7), each sum in order of n
    from 0.0: weights and values C-contiguous float64 arrays of one dimension, the rest int64."""
    if not _floats(weights, values) or not all(x == types.int64 for x in (at, count, base, stride)):
        return None
    return types.UniTuple(types.float64, WIDTH)(weights, at, count, values, base, stride), _dot8_codegen


@intrinsic
def _dots4x2(typingctx, weights, ats, counts, values, bases, stride):
    """For rows r < 4 and c in (0, 1): the sum over n < counts[r] of weights[ats[r] + n] * values[bases[r] + stride * n
    + c], each in order of n from 0.0; returned as the four rows' c = 0 sums, then their c = 1 sums. weights and values
    as for `_dot8`; ats, counts, bases 4-tuples of int64, stride int64."""
    quad = types.UniTuple(types.int64, ROWS)
    if not _floats(weights, values) or not all(x == quad for x in (ats, counts, bases)) or stride != types.int64:
        return None
    return types.UniTuple(types.float64, 2 * ROWS)(weights, ats, counts, values, bases, stride), _dots4x2_codegen
