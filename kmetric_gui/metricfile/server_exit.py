"""Imported only by the workers' server (start.PRELOAD, last): when its caller ends,
the server ends at once, without tearing down an interpreter that holds pandas
(0.1-0.3 s during which it still held the caller's output pipes, so a pipeline
reading the caller's output waited for it). Its forked workers never run exit
handlers (multiprocessing ends them with os._exit)."""
import atexit
import os

atexit.register(os._exit, 0)
