import LoopCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// NB: everything but reading the arguments lives in LoopCLI, where the tests drive it.
exit(await Launcher.main(arguments: Array(CommandLine.arguments.dropFirst())))
