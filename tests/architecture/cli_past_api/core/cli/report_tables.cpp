// A front end reaching past the api to an analysis: check_layers.py must refuse it
// (ctest layers_catch_cli_past_api). Never built.
#include "analyses/ops/ops.h"
#include "api/session.h"
