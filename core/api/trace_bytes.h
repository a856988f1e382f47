#pragma once
// The bytes a Session loads (Session::load, load_capture): a PaddedBuffer, with the
// padding the parser may read past the end. Front ends fill one from a file (the CLI)
// or from the page's memory, so they take it from here, not from the store below.
#include "store/padded_buffer.h"
