#pragma once
#include <string>
#include <vector>

namespace sollens::cli {

inline constexpr const char* kVersion = "0.1.0";

int run_report(const std::vector<std::string>& args);
int run_info(const std::vector<std::string>& args);
int run_cycles(const std::vector<std::string>& args);
int run_sol(const std::vector<std::string>& args);
int run_solar(const std::vector<std::string>& args);
int run_diff(const std::vector<std::string>& args);
int run_explain(const std::vector<std::string>& args);
std::string explain_options_usage();

}  // namespace sollens::cli
