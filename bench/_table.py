"""Timing helpers shared by the bench scripts: medians and a plain table."""
import resource
import statistics
import subprocess
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


def timed(fn, repeat):
    """(median wall s, median CPU s, last result) of repeat calls after a warm-up."""
    out = fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu), out


def child_run(cmd, repeat):
    """(median wall s, median CPU s) of a fresh process, CPU = the child's user + system."""
    wall, cpu = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        wall.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(wall), statistics.median(cpu)
