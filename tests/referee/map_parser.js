// BAR's own map reader on one archive: spring-map-parser (npm), as BAR's lobby and the
// maps-metadata service run it to draw a map's preview. Writes what it read into OUT_DIR:
// summary.json (names, sizes, heights, the .smd or mapinfo it found) and each picture as raw
// RGBA (texture: 4 px a tile, without and with its water; height, metal, type, minimap).
//
// usage: node map_parser.js ARCHIVE OUT_DIR
// The module is looked up in $SPRING_MAP_PARSER_DIR (a node_modules folder), then as usual.
"use strict";
const fs = require("fs");
const path = require("path");

function parserModule() {
    const dir = process.env.SPRING_MAP_PARSER_DIR;
    if (dir) {
        return require(path.join(dir, "spring-map-parser"));
    }
    return require("spring-map-parser");
}

async function main() {
    const [archive, out] = process.argv.slice(2);
    if (!archive || !out) {
        console.error("usage: node map_parser.js ARCHIVE OUT_DIR");
        process.exit(2);
    }
    fs.mkdirSync(out, { recursive: true });
    const { MapParser } = parserModule();
    const parser = new MapParser({ verbose: false, mipmapSize: 4, water: true });
    const map = await parser.parseMap(archive);
    const pictures = {
        texture: map.textureMapDry,
        texture_wet: map.textureMap,
        height: map.heightMap,
        metal: map.metalMap,
        type: map.typeMap,
        minimap: map.miniMap,
    };
    const sizes = {};
    for (const [name, img] of Object.entries(pictures)) {
        if (!img) {
            continue;
        }
        fs.writeFileSync(path.join(out, `${name}.rgba`), img.bitmap.data);
        sizes[name] = [img.bitmap.width, img.bitmap.height];
    }
    const smf = map.smf || {};
    const summary = {
        scriptName: map.scriptName,
        fileName: map.fileNameWithExt,
        minHeight: map.minHeight,
        maxHeight: map.maxHeight,
        mapWidth: smf.mapWidth,
        mapHeight: smf.mapHeight,
        mapWidthUnits: smf.mapWidthUnits,
        mapHeightUnits: smf.mapHeightUnits,
        mapInfoName: map.mapInfo ? map.mapInfo.name : null,
        smd: map.smd || null,
        pictures: sizes,
    };
    fs.writeFileSync(path.join(out, "summary.json"), JSON.stringify(summary, null, 1));
}

main().catch((err) => {
    console.error(String(err && err.stack ? err.stack : err));
    process.exit(1);
});
