/*
 * cli_list.c: `collviz list`: the ops with their algorithms (default
 * first), the dtypes, the redops, the link presets of the cost model, and
 * which backends can run on this machine.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cv_cuda.h"

static const char list_help[] =
    "usage: collviz list [--json]\n\nLists the ops and their algorithms (default first), the "
    "dtypes, the\nredops, the cost model's link presets and the backends available here.\n";

int cli_cmd_list(int argc, char **argv)
{
    bool json = false;
    cli_flag flags[] = {CLI_SWITCH("--json", &json)};
    cli_cmdline cl = CLI_CMDLINE("list", list_help, flags);
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    char why[CV_ERR_LEN] = "";
    bool cuda_ok = cv_cuda_backend()->probe(why, sizeof why) == CV_OK;
    const cv_link *links;
    int nlinks = cv_link_presets(&links);
    const ncclog_system *presets;
    int npresets = ncclog_system_presets(&presets);
    if (json) {
        cJSON *root = cJSON_CreateObject(), *ops = cJSON_AddObjectToObject(root, "ops");
        for (int op = 0; op < CV_OP_COUNT; op++) {
            cv_algo a[CV_ALGO_COUNT];
            int n = cv_op_algos(op, a);
            cJSON *arr = cJSON_AddArrayToObject(ops, cv_op_name(op));
            for (int i = 0; i < n; i++)
                cJSON_AddItemToArray(arr, cJSON_CreateString(cv_algo_name(a[i])));
        }
        cJSON *d = cJSON_AddArrayToObject(root, "dtypes");
        for (int i = 0; i < CV_DTYPE_COUNT; i++)
            cJSON_AddItemToArray(d, cJSON_CreateString(cv_dtype_name(i)));
        cJSON *r = cJSON_AddArrayToObject(root, "redops");
        for (int i = 0; i < CV_REDOP_COUNT; i++)
            cJSON_AddItemToArray(r, cJSON_CreateString(cv_redop_name(i)));
        cJSON *l = cJSON_AddArrayToObject(root, "links");
        for (int i = 0; i < nlinks; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", links[i].name);
            cJSON_AddNumberToObject(o, "GBps", links[i].bw / 1e9);
            cJSON_AddNumberToObject(o, "alpha_us", links[i].alpha * 1e6);
            cJSON_AddStringToObject(o, "about", links[i].about);
            cJSON_AddItemToArray(l, o);
        }
        cJSON *pr = cJSON_AddArrayToObject(root, "protos");
        for (int i = 0; i < CV_PROTO_COUNT; i++)
            cJSON_AddItemToArray(pr, cJSON_CreateString(cv_proto_name((cv_proto)i)));
        cJSON *np = cJSON_AddArrayToObject(root, "nccl_presets");
        for (int i = 0; i < npresets; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", presets[i].name);
            cJSON_AddStringToObject(o, "about", presets[i].about);
            cJSON_AddItemToArray(np, o);
        }
        cJSON *b = cJSON_AddArrayToObject(root, "backends");
        cJSON_AddItemToArray(b, cJSON_CreateString("cpu"));
        if (cuda_ok)
            cJSON_AddItemToArray(b, cJSON_CreateString("cuda"));
        if (cv_mpi_built())
            cJSON_AddItemToArray(b, cJSON_CreateString("mpi"));
        char *text = cJSON_Print(root);
        puts(text);
        free(text);
        cJSON_Delete(root);
        return CLI_EXIT_OK;
    }
    printf("ops and their algorithms (default first):\n");
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo a[CV_ALGO_COUNT];
        int n = cv_op_algos(op, a);
        printf("  %-14s", cv_op_name(op));
        for (int i = 0; i < n; i++)
            printf("%s%s", i ? ", " : "", cv_algo_name(a[i]));
        putchar('\n');
    }
    printf("dtypes: ");
    for (int i = 0; i < CV_DTYPE_COUNT; i++)
        printf("%s%s", i ? ", " : "", cv_dtype_name(i));
    printf("\nredops: sum, prod, min, max, avg; band, bor, bxor for integer dtypes\n");
    printf("links (cost model):\n");
    for (int i = 0; i < nlinks; i++)
        printf("  %-8s %7.1f GB/s  alpha %4.1f us  %s\n", links[i].name, links[i].bw / 1e9,
               links[i].alpha * 1e6, links[i].about);
    printf("protos (NCCL's protocols, priced by the cost model): simple (the data as it is,\n"
           "  full bandwidth), ll128 (120 data bytes in each 128-byte line), ll (4 data\n"
           "  bytes in each 8-byte store, the least latency)\n");
    printf("nccl presets (cost --nccl P: NCCL's own pick by size, its tuner modelled):\n");
    for (int i = 0; i < npresets; i++)
        printf("  %-14s %s\n", presets[i].name, presets[i].about);
    printf("backends: cpu (%d worker threads)", cv_cpu_threads());
    if (cuda_ok)
        printf(", cuda");
    if (cv_mpi_built()) /* one rank per process: under mpirun, through run */
        printf(", mpi (mpirun -np N collviz run --backend mpi ...)");
    putchar('\n');
    if (!cuda_ok)
        printf("  cuda unavailable: %s\n", why);
    if (!cv_mpi_built())
        printf("  mpi unavailable (built without MPI)\n");
    return CLI_EXIT_OK;
}
