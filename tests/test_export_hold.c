/*
 * test_export_hold.c: `collviz export --gif` holds the first and last
 * frames (--hold, 2 s by default) so a looping slide shows the inputs and
 * the result long enough to read; the frames between keep 1/fps. Read back
 * with giflib, as a viewer would.
 */
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "check.h"

/* The delays (centiseconds) of every frame of path; returns how many. */
static int delays(const char *path, int *out, int max)
{
    int e = 0, n = 0;
    GifFileType *g = DGifOpenFileName(path, &e);
    if (!g)
        return -1;
    if (DGifSlurp(g) == GIF_OK)
        for (int i = 0; i < g->ImageCount && n < max; i++) {
            GraphicsControlBlock gcb;
            out[n++] = DGifSavedExtensionToGCB(g, i, &gcb) == GIF_OK ? gcb.DelayTime : -1;
        }
    DGifCloseFile(g, &e);
    return n;
}

static void check(const char *extra, int first, int middle)
{
    char cmd[1024];
    const char *gif = COLLVIZ_BINARY_DIR "/export-hold-test.gif";
    snprintf(cmd, sizeof cmd,
             "'" COLLVIZ_BINARY_DIR "/collviz' export --op allreduce --ranks 4 --size 320x240 "
             "--fps 4 --gif '%s' %s > /dev/null 2>&1", gif, extra);
    int rc = system(cmd);
    int d[256], n = rc == 0 ? delays(gif, d, 256) : -1;
    EXPECT(rc == 0 && n > 3, "export %s: status %d, %d frames", extra, rc, n);
    if (n > 3)
        EXPECT(d[0] == first && d[n - 1] == first && d[1] == middle && d[n - 2] == middle,
               "export %s: delays %d %d ... %d %d, expected %d %d ... %d %d", extra, d[0], d[1],
               d[n - 2], d[n - 1], first, middle, middle, first);
    remove(gif);
}

int main(void)
{
    check("", 200, 25);
    check("--hold 5.5", 550, 25);
    check("--hold 0", 25, 25); /* never shorter than a frame */
    int rc = system("'" COLLVIZ_BINARY_DIR "/collviz' export --op allreduce --gif /dev/null "
                    "--hold 700 > /dev/null 2>&1");
    EXPECT(WEXITSTATUS(rc) == 2, "--hold 700 is refused: status %d", rc);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
