#pragma once
// Time as the whole process sees it, for the stage breakdown commands print: wall
// time since main() began and the CPU time of every thread since the process began.
#include <chrono>

namespace sollens::cli {

// Called first thing in main().
void start_process_clock();
double wall_ms_since_main();
double process_cpu_ms();

}  // namespace sollens::cli
