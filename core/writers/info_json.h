#pragma once
// `sollens info` as JSON for the page: format, version hints, devices, ranks, event
// counts, time span and warnings. Compact, keys in the page's camelCase.
#include <string>

#include "analyses/info/trace_info.h"
#include "store/event_store.h"

namespace sollens {

std::string trace_info_json(const TraceInfo& info, const EventStore& store);

}  // namespace sollens
