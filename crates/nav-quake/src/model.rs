//! The owned, editable model.
//!
//! Counts are not stored: in this format they are exactly the array lengths, so the model cannot
//! disagree with itself. Floats are [`RawF32`] so that `-0.0` survives. Node origins live in the
//! node (the file keeps them in a parallel array of the same length).

use nav_core::RawF32;

use crate::layout::{Layout, Magic};
use crate::view::{Edicts, NavView, RawVec3, Traversals};

/// Three floats by their bits.
pub type Vec3 = [RawF32; 3];

/// A whole navigation file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NavFile {
    /// `NAV2` or `NAV3`.
    pub magic: Magic,
    /// The version as stored.
    pub version: u32,
    /// The A* weighting float of NAV2 v16+ and NAV3 (`0.8` in most files); `None` for earlier
    /// NAV2 versions, whose header has no such field.
    pub heuristic: Option<RawF32>,
    /// Nodes, with their origins.
    pub nodes: Vec<Node>,
    /// Links; each node owns the run `first_link .. first_link + num_links`.
    pub links: Vec<Link>,
    /// Traversals (jump and ladder paths), referenced by links.
    pub traversals: Vec<Traversal>,
    /// Entities that gate links (doors, platforms).
    pub edicts: Vec<Edict>,
}

/// A node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Node {
    /// Flag bits; see [`NodeFlags`].
    pub flags: u16,
    /// Number of links leaving the node.
    pub num_links: u16,
    /// Index of its first link.
    pub first_link: u16,
    /// Radius in world units.
    pub radius: u16,
    /// Position.
    pub origin: Vec3,
}

/// Node flag bits (NAV2 names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeFlags;

impl NodeFlags {
    /// Teleporter destination or source.
    pub const TELEPORTER: u16 = 1;
    /// Trigger_push.
    pub const PUSHER: u16 = 2;
    /// Top of an elevator.
    pub const ELEVATOR_TOP: u16 = 4;
    /// Bottom of an elevator.
    pub const ELEVATOR_BOTTOM: u16 = 8;
    /// Under water.
    pub const UNDERWATER: u16 = 16;
    /// Hazard (lava, slime).
    pub const HAZARD: u16 = 32;
    /// Check for floor before use.
    pub const CHECK_FOR_FLOOR: u16 = 64;
    /// Check for solid before use.
    pub const CHECK_FOR_SOLID: u16 = 128;
    /// Monsters do not use the node.
    pub const NO_MONSTERS: u16 = 256;

    /// Every named bit with its name, lowest first.
    pub const NAMES: [(u16, &'static str); 9] = [
        (1, "Teleporter"),
        (2, "Pusher"),
        (4, "ElevatorTop"),
        (8, "ElevatorBottom"),
        (16, "Underwater"),
        (32, "Hazard"),
        (64, "CheckForFloor"),
        (128, "CheckForSolid"),
        (256, "NoMonsters"),
    ];
}

/// A link from a node to a target node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Link {
    /// Target node index.
    pub target: u16,
    /// Link type byte; see [`LinkType`].
    pub link_type: u8,
    /// Link flags byte (NAV3 and NAV2 v18: team and movement bits; see [`LinkFlags`]). In NAV2
    /// up to v17 it is the high byte of a `u16` type and 0 in every known file.
    pub flags: u8,
    /// Traversal index, or [`Link::NO_TRAVERSAL`].
    pub traversal: u16,
}

impl Link {
    /// The traversal index meaning "none".
    pub const NO_TRAVERSAL: u16 = 0xFFFF;

    /// The traversal index, if the link has one.
    pub fn traversal(&self) -> Option<u16> {
        (self.traversal != Self::NO_TRAVERSAL).then_some(self.traversal)
    }

    /// The link type, by name.
    pub fn kind(&self) -> LinkType {
        LinkType::from_byte(self.link_type)
    }
}

/// Link types. 0–8 are shared by Quake and Quake II; 9–13 are Quake II's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkType {
    /// Walk.
    Walk,
    /// Long jump.
    LongJump,
    /// Teleport.
    Teleport,
    /// Walk off a ledge.
    WalkOffLedge,
    /// Pushed by a trigger_push.
    Pusher,
    /// Jump over a barrier.
    BarrierJump,
    /// Ride an elevator.
    Elevator,
    /// Ride a train.
    Train,
    /// Jump placed by hand.
    ManualJump,
    /// Crouch (Quake II).
    Crouch,
    /// Climb a ladder (Quake II).
    Ladder,
    /// Barrier jump placed by hand (Quake II).
    ManualBarrierJump,
    /// Pivot and jump (Quake II).
    PivotAndJump,
    /// Rocket jump (Quake II).
    RocketJump,
    /// Any other value.
    Other(u8),
}

impl LinkType {
    /// The type a byte encodes.
    pub fn from_byte(b: u8) -> Self {
        match b {
            0 => LinkType::Walk,
            1 => LinkType::LongJump,
            2 => LinkType::Teleport,
            3 => LinkType::WalkOffLedge,
            4 => LinkType::Pusher,
            5 => LinkType::BarrierJump,
            6 => LinkType::Elevator,
            7 => LinkType::Train,
            8 => LinkType::ManualJump,
            9 => LinkType::Crouch,
            10 => LinkType::Ladder,
            11 => LinkType::ManualBarrierJump,
            12 => LinkType::PivotAndJump,
            13 => LinkType::RocketJump,
            other => LinkType::Other(other),
        }
    }

    /// Whether the type is one `magic` defines.
    pub fn known_in(self, magic: Magic) -> bool {
        match self {
            LinkType::Other(_) => false,
            LinkType::Crouch
            | LinkType::Ladder
            | LinkType::ManualBarrierJump
            | LinkType::PivotAndJump
            | LinkType::RocketJump => magic == Magic::Nav3,
            _ => true,
        }
    }
}

/// Link flag bits of NAV3 (and, by the same reading, NAV2 v18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkFlags;

impl LinkFlags {
    /// Red team may use the link.
    pub const TEAM_RED: u8 = 1;
    /// Blue team may use the link.
    pub const TEAM_BLUE: u8 = 2;
    /// Exit at the target.
    pub const EXIT_AT_TARGET: u8 = 4;
    /// Walk only.
    pub const WALK_ONLY: u8 = 8;
    /// Ease into the target.
    pub const EASE_INTO_TARGET: u8 = 16;
    /// Turn instantly.
    pub const INSTANT_TURN: u8 = 32;
    /// Disabled.
    pub const DISABLED: u8 = 64;

    /// Every named bit with its name, lowest first.
    pub const NAMES: [(u8, &'static str); 7] = [
        (1, "TeamRed"),
        (2, "TeamBlue"),
        (4, "ExitAtTarget"),
        (8, "WalkOnly"),
        (16, "EaseIntoTarget"),
        (32, "InstantTurn"),
        (64, "Disabled"),
    ];
}

/// A traversal: the path of a jump, drop or ladder climb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Traversal {
    /// Funnel point, (0,0,0) when unused.
    pub funnel: Vec3,
    /// Start point.
    pub start: Vec3,
    /// End point.
    pub end: Vec3,
    /// Ladder plane of NAV3 v4+; `None` where the layout has no such field.
    pub ladder_plane: Option<Vec3>,
}

/// An entity that gates a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Edict {
    /// Index of the gated link.
    pub link: u16,
    /// Bounding box minimum.
    pub mins: Vec3,
    /// Bounding box maximum.
    pub maxs: Vec3,
    /// The version-specific fields.
    pub entity: EdictEntity,
}

/// How an edict names its entity; each layout has one form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum EdictEntity {
    /// NAV2 v12: nothing after the box.
    None,
    /// NAV2 v13–v14: engine string ids of the targetname and classname.
    StringIds {
        /// Targetname string id.
        targetname: i32,
        /// Classname string id.
        classname: i32,
    },
    /// NAV2 v15+: `-(entity index) - 1`.
    EntityId(i32),
    /// NAV3: brush model index.
    Model(i32),
}

impl EdictEntity {
    /// The entity index an [`EdictEntity::EntityId`] encodes (`-18` → 17).
    pub fn entity_index(&self) -> Option<i64> {
        match self {
            EdictEntity::EntityId(id) => Some(-i64::from(*id) - 1),
            _ => None,
        }
    }
}

pub(crate) fn vec3(v: &RawVec3) -> Vec3 {
    [v.x.into(), v.y.into(), v.z.into()]
}

impl NavFile {
    /// An empty file of this magic and version, heuristic `0.8` where the layout has one.
    /// Returns `None` for an unsupported version.
    pub fn new(magic: Magic, version: u32) -> Option<Self> {
        let layout = Layout::new(magic, version)?;
        Some(NavFile {
            magic,
            version,
            heuristic: layout.has_heuristic().then_some(RawF32::new(0.8)),
            nodes: Vec::new(),
            links: Vec::new(),
            traversals: Vec::new(),
            edicts: Vec::new(),
        })
    }

    /// The layout of this file's magic and version, if supported.
    pub fn layout(&self) -> Option<Layout> {
        Layout::new(self.magic, self.version)
    }

    /// The links of node `i` (empty when the node or its range does not exist).
    pub fn node_links(&self, i: usize) -> &[Link] {
        self.nodes
            .get(i)
            .and_then(|n| {
                let start = usize::from(n.first_link);
                self.links.get(start..start + usize::from(n.num_links))
            })
            .unwrap_or(&[])
    }

    /// Copies a view.
    pub fn from_view(view: &NavView<'_>) -> Self {
        let nodes = view
            .nodes()
            .iter()
            .zip(view.origins())
            .map(|(n, o)| Node {
                flags: n.flags.get(),
                num_links: n.num_links.get(),
                first_link: n.first_link.get(),
                radius: n.radius.get(),
                origin: vec3(o),
            })
            .collect();
        let links = view
            .links()
            .iter()
            .map(|l| Link {
                target: l.target.get(),
                link_type: l.link_type,
                flags: l.flags,
                traversal: l.traversal.get(),
            })
            .collect();
        let traversals = match view.traversals() {
            Traversals::Plain(s) => s
                .iter()
                .map(|t| Traversal {
                    funnel: vec3(&t.funnel),
                    start: vec3(&t.start),
                    end: vec3(&t.end),
                    ladder_plane: None,
                })
                .collect(),
            Traversals::Ladder(s) => s
                .iter()
                .map(|t| Traversal {
                    funnel: vec3(&t.funnel),
                    start: vec3(&t.start),
                    end: vec3(&t.end),
                    ladder_plane: Some(vec3(&t.ladder_plane)),
                })
                .collect(),
        };
        let edicts = match view.edicts() {
            Edicts::V12(s) => s
                .iter()
                .map(|e| Edict {
                    link: e.link.get(),
                    mins: vec3(&e.mins),
                    maxs: vec3(&e.maxs),
                    entity: EdictEntity::None,
                })
                .collect(),
            Edicts::V14(s) => s
                .iter()
                .map(|e| Edict {
                    link: e.link.get(),
                    mins: vec3(&e.mins),
                    maxs: vec3(&e.maxs),
                    entity: EdictEntity::StringIds {
                        targetname: e.targetname.get(),
                        classname: e.classname.get(),
                    },
                })
                .collect(),
            Edicts::V15(s) => s
                .iter()
                .map(|e| Edict {
                    link: e.link.get(),
                    mins: vec3(&e.mins),
                    maxs: vec3(&e.maxs),
                    entity: EdictEntity::EntityId(e.entity.get()),
                })
                .collect(),
            Edicts::Nav3(s) => s
                .iter()
                .map(|e| Edict {
                    link: e.link.get(),
                    mins: vec3(&e.mins),
                    maxs: vec3(&e.maxs),
                    entity: EdictEntity::Model(e.model.get()),
                })
                .collect(),
        };
        NavFile {
            magic: view.layout().magic(),
            version: view.layout().version(),
            heuristic: view.heuristic().map(RawF32::from),
            nodes,
            links,
            traversals,
            edicts,
        }
    }
}

/// Models that mostly fit their layout, so that fuzzing spends its time on writable files: the
/// magic picks a supported version, and the heuristic, ladder planes and edict forms follow it.
/// Node, link and traversal contents stay arbitrary (dangling indices included).
#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for NavFile {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let magic: Magic = u.arbitrary()?;
        let version = u.int_in_range(magic.versions())?;
        let layout = Layout::new(magic, version).ok_or(arbitrary::Error::IncorrectFormat)?;
        let heuristic = if layout.has_heuristic() {
            Some(u.arbitrary()?)
        } else {
            None
        };
        let nodes: Vec<Node> = u.arbitrary()?;
        let links: Vec<Link> = u.arbitrary()?;
        let mut traversals: Vec<Traversal> = u.arbitrary()?;
        for t in &mut traversals {
            t.ladder_plane = if layout.has_ladder_plane() {
                Some(t.ladder_plane.unwrap_or([RawF32::ZERO; 3]))
            } else {
                None
            };
        }
        let mut edicts: Vec<Edict> = u.arbitrary()?;
        for e in &mut edicts {
            let n: i32 = u.arbitrary()?;
            e.entity = match layout.edict_layout() {
                crate::layout::EdictLayout::V12 => EdictEntity::None,
                crate::layout::EdictLayout::V14 => EdictEntity::StringIds {
                    targetname: n,
                    classname: u.arbitrary()?,
                },
                crate::layout::EdictLayout::V15 => EdictEntity::EntityId(n),
                crate::layout::EdictLayout::Nav3 => EdictEntity::Model(n),
            };
        }
        Ok(NavFile {
            magic,
            version,
            heuristic,
            nodes,
            links,
            traversals,
            edicts,
        })
    }
}
