/* main.c - the gpucal binary: the command line to gc_cli_main (gpucal.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    return gc_cli_main(argc, argv);
}
