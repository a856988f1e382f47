#pragma once
// A store header reaching up into an analysis: check_layers.py must reject this tree.
#include "analyses/ops/ops.h"
