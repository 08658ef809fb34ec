// Imported first by the benchmarks: the logger reads LOG_LEVEL when it is created, and one access-log line per
// request would drown the figures.
process.env.LOG_LEVEL ??= 'warn';
