-- Groundwork's minimal game: the map alone, for `groundwork try` where no game is installed.
return {
  name = "Groundwork Try", shortname = "GWTRY", game = "Groundwork Try", shortgame = "GWTRY",
  version = "1", mutator = "", description = "the map alone, to try it", modtype = 1,
  depend = {"Spring Cursors"},
}
