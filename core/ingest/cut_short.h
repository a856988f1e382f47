#pragma once
// A trace cut short (a file cut while it was written or copied): the warnings that say
// so, shared by the reader of a whole file and the reader fed in chunks (the page), so
// that both say the same about the same file.
#include <string>

#include "store/event_store.h"

namespace sollens {

// A gzip stream that ends before its trailer: every byte inflated before the cut is read.
Diagnostic gzip_truncated_warning();

// Whether the store's warnings say that its file was cut short (a gzip stream or the
// JSON ending early).
bool cut_short(const EventStore& store);

// What the cut lost: Kineto writes the GPU events (kernels, memcpy, memset) after the
// CPU ones, so a cut file often holds launches whose GPU events were never written.
// Counts the launches read that no GPU event carries the correlation id of; on a store
// that is cut_short, adds the warning "cut_short_gpu" when there are any, or when no
// GPU event was read at all. Called once the store's other warnings are in.
void add_cut_short_loss(EventStore& store);

}  // namespace sollens
