#pragma once
// placeholder: wormhole_check.h (helper)
