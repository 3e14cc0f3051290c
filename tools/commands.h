/* commands.h - gjkbatch's commands, each given the whole command line
 * (argv[1] is its name); each returns the exit status (options.h). */
#ifndef GJKB_TOOLS_COMMANDS_H
#define GJKB_TOOLS_COMMANDS_H

/* query: answers a pair file as CSV (cmd_query.c). */
int cmd_query(int argc, char **argv);

/* batch: times one generated pair batch and verifies it (cmd_batch.c). */
int cmd_batch(int argc, char **argv);

/* run: steps a moving world frame by frame (cmd_run.c). */
int cmd_run(int argc, char **argv);

#endif
