/* cuda_runtime.h (test double): see cuda_runtime_api.h beside it. */
#include "cuda_runtime_api.h"
