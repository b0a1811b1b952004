// Debian's libcairo2-dev (installed by scripts/setup): the image and SVG surfaces.
#include <cairo.h>
#include <cairo-svg.h>
