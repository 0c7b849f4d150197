import Glibc

/// Monotonic time in seconds.
public func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// CPU time of the calling thread in seconds: what a measurement charges when
/// the machine is shared (time spent descheduled is not counted).
public func threadCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
