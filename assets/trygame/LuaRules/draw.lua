-- Unsynced: the camera over the player's start (or where Groundwork asked), cheats on, the
-- screenshot, and the quit, each at the frame LuaRules/groundwork_try.lua names.
local C = VFS.Include("LuaRules/groundwork_try.lua")

-- the camera looking from `c.px, c.py, c.pz` at `c.tx, c.ty, c.tz` (elmos), as the rotatable
-- overhead camera states it (CCamera::GetRotFromDir: rx = acos(dir.y), ry = atan2(dir.x, -dir.z))
local function look(c)
  local dx, dy, dz = c.tx - c.px, c.ty - c.py, c.tz - c.pz
  local len = math.sqrt(dx * dx + dy * dy + dz * dz)
  if len < 1e-3 then return end
  dx, dy, dz = dx / len, dy / len, dz / len
  local ground = Spring.GetGroundHeight(c.px, c.pz) or 0
  Spring.SetCameraState({name = "rot", mode = 3, px = c.px, py = c.py, pz = c.pz,
                         dx = dx, dy = dy, dz = dz, rx = math.acos(dy), ry = math.atan2(dx, -dz), rz = 0,
                         oldHeight = c.py - ground}, 0)
end

-- the whole map from above its centre
local function overview()
  local cx, cz = Game.mapSizeX / 2, Game.mapSizeZ / 2
  Spring.SetCameraState({name = "ta", mode = 1, px = cx, py = 0, pz = cz,
                         height = math.max(Game.mapSizeX, Game.mapSizeZ) * 1.4,
                         zscale = 0.5, flipped = -1, angle = 0.6}, 0)
end

local function place_camera()
  if C.camera then
    look(C.camera)
  elseif C.shot_frame then
    overview()
  elseif C.start then
    local x, z = C.start[1], C.start[2]
    Spring.SetCameraTarget(x, Spring.GetGroundHeight(x, z) or 0, z, 0)
  end
end

local first = true
function GameFrame(n)
  if first then
    first = false
    if C.cheats then Spring.SendCommands("cheat") end
    place_camera()
  end
  if C.shot_frame and n == math.max(1, C.shot_frame - 40) then
    -- the map alone: no console, panels or cursor in the picture
    Spring.SendCommands("hideinterface 1")
    place_camera()
  end
  if C.shot_frame and n == C.shot_frame then
    Spring.SendCommands("screenshot png")
    Spring.Echo("GROUNDWORK shot " .. n)
  end
  if C.quit_frame and n >= C.quit_frame then
    Spring.Echo("GROUNDWORK quit " .. n)
    Spring.SendCommands("quitforce")
  end
end
