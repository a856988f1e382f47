#pragma once
#include "store/upward.h"
