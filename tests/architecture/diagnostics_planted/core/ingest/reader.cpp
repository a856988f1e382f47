// Emits each planted code but never_emitted, and two warnings without a code.
void read(Store& store) {
  store.warnings.push_back({Code::cut_short, "cut at byte 9"});
  store.warnings.push_back({Code::NotSnake, ""});
  store.warnings.push_back({Code::no_stop, ""});
  // store.warnings.push_back("a comment is not code");
  store.warnings.push_back("the gzip stream ends early");
  store.warnings.push_back(std::to_string(3) + " events skipped");
}
