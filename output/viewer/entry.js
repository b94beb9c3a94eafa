// The parts of three.js the viewer uses; fetch.sh bundles them into three.min.js (global THREE).
export {
	WebGLRenderer, Scene, PerspectiveCamera, OrthographicCamera, Group, Mesh, Line, LineSegments,
	BufferGeometry, Float32BufferAttribute, BoxGeometry, CylinderGeometry, SphereGeometry,
	MeshStandardMaterial, MeshBasicMaterial, LineBasicMaterial, AmbientLight, DirectionalLight,
	GridHelper, Vector3, Quaternion, Box3, Color, MOUSE, TOUCH,
} from 'three';
export { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
