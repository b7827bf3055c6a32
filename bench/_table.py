"""Timing helpers shared by the bench scripts: medians and a plain table."""
import statistics
import time


def median_time(fn, repeat=5, warmup=1):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def print_table(rows):
    """rows: (case, ours_s, reference name, reference_s)."""
    head = f"{'case':<34} {'ours (s)':>10} {'reference':<28} {'ref (s)':>10} {'ratio':>8}"
    print(head)
    print("-" * len(head))
    for case, ours, ref_name, ref in rows:
        print(f"{case:<34} {ours:>10.4f} {ref_name:<28} {ref:>10.4f} {ref / ours:>7.1f}x")
