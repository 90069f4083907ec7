/*
 * compose.h: the subcommands made of two rooms of app/ (compose.c), as
 * main.c and the page's entry point see them. Each returns an CLI_EXIT_*
 * code; argv[0] is the subcommand's name.
 */
#ifndef COMPOSE_H
#define COMPOSE_H

int compose_cmd_lesson(int argc, char **argv);   /* a lesson at a beat: window, else terminal */
int compose_cmd_nccl_log(int argc, char **argv); /* an NCCL log's summary, then the window */

#endif /* COMPOSE_H */
