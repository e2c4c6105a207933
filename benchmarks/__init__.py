"""The benchmark suite: ``python -m benchmarks [CASE ...] [--quick] [--markdown] [--baseline DIR]``.

Each case (:data:`benchmarks.__main__.CASES`) is data: what it runs, its options at full
size and quick, the alternatives it compares side by side in one run.  Results:
``benchmarks/RESULTS.md``.
"""
