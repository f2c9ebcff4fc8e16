-- Synced: says when the map is loaded and when the game runs; nothing else happens in it.
local loaded_frame = Spring.GetGameFrame and Spring.GetGameFrame() or 0
Spring.Echo(string.format("GROUNDWORK loaded %d %d %d %s", loaded_frame, Game.mapSizeX, Game.mapSizeZ,
  Game.mapName or "?"))

local started = false
function GameFrame(n)
  if not started then
    started = true
    local x, y, z = Spring.GetTeamStartPosition(0)
    Spring.Echo(string.format("GROUNDWORK started %d start %.0f %.0f", n, x or -1, z or -1))
  end
end
